import { callApi } from '@/lib/api-client/api-client';
import { session } from './session-store';
import { removeToken } from './token-cookie';

/**
 * Spec §4.7 log out. The server revokes every token of the user; whether or not that call succeeds, the
 * client forgets the session and the cookie (the caller then goes to /login).
 */
export async function logOut(): Promise<void> {
  await callApi('logout', {}, { handle: 'all' });
  removeToken();
  session.clear();
}
