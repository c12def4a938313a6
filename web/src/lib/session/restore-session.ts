import { API_ERR } from '@shared/messages';
import { callApi } from '@/lib/api-client/api-client';
import { showSessionTimeout } from '@/lib/popup/popup-store';
import { parseUser } from './parse-user';
import { session, signIn } from './session-store';
import { getToken, removeToken } from './token-cookie';

/**
 * Spec §4.7: with a stored token cookie, re-authenticate at start; on success store the user and mark
 * the session authenticated, on failure remove the cookie. Without a cookie nobody is signed in.
 */
export async function restoreSession(): Promise<void> {
  const token = getToken();
  if (!token) {
    if (session.get().isAuthenticated) session.clear();
    return;
  }
  // spec §7: the payload is the token as 'Bearer ' plus the cookie token
  const result = await callApi(
    'auth',
    { body: { token: `Bearer ${token}` } },
    { handle: 'all', loader: false },
  );
  const user = result.ok ? parseUser(result.data.user) : null;
  if (user) {
    signIn(user, result.ok && result.data.mustChangePassword === true);
    return;
  }
  removeToken();
  session.clear();
  // a deleted account lands on the login page with the reason, not silently
  if (!result.ok && result.status === 401 && result.error.errorMessage === API_ERR.accountDeleted)
    showSessionTimeout(result.error.errorMessage);
}
