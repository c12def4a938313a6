import type { NavigateFunction } from 'react-router-dom';
import { paths } from '@/config/paths';
import { safeNextPath } from '@/lib/session/guards';
import { parseUser } from '@/lib/session/parse-user';
import { signIn } from '@/lib/session/session-store';
import { setToken } from '@/lib/session/token-cookie';

/** A sign-in answer (POST /user/login, or a company sign-in's session): the token and the user as JSON text. */
export interface SessionAnswer {
  token: string;
  user: string;
  mustChangePassword?: true;
}

/**
 * Ends every sign-in the same way, password or company (decision 315): keeps the token, opens the session
 * and goes where the user belongs. False when the answer carries no user (the caller says so).
 */
export function finishSignIn(
  answer: SessionAnswer,
  navigate: NavigateFunction,
  nextParam: string | null,
): boolean {
  const user = parseUser(answer.user);
  if (!user) return false;
  setToken(answer.token);
  signIn(user, answer.mustChangePassword === true);
  // a one-time password (npm run admin:create) or a mailed temporary one (issue 23): straight to the
  // password form, and nothing else until it is changed (the guards hold the user there)
  if (answer.mustChangePassword) {
    const settings = user.userRole === 'ADMIN' ? paths.admin.settings : paths.settings;
    navigate(`${settings}?form=password&first=1`, { replace: true });
    return true;
  }
  // spec §4.7: admins to /admin, others to /home — or back to the page a mail link asked for
  const next = safeNextPath(nextParam);
  navigate(user.userRole === 'ADMIN' ? paths.admin.home : (next ?? paths.home), { replace: true });
  return true;
}
