import { ForbiddenError } from '../../../shared/domain/errors';
import { SIGNATURE_PASSWORD_WRONG } from '../../../shared/domain/signature-meanings';
import { API_ERR } from '../../../shared/messages';
import type { UserRecord } from '../../ports/user-repository';
import { verifyPassword } from '../password-hasher';
import { forgiveSource, recordSignInFailure, refuseWhileThrottled, type ThrottleDeps } from './sign-in';

/**
 * The password check of an electronic signature (decision 141): the signed-in user re-enters the password
 * they sign in with. It shares the sign-in throttle: while the account is locked from this source the
 * answer is 429 as at sign-in, a wrong password is counted as a failed sign-in and answers 403 (not 401:
 * the session itself is fine), and the right one forgives this source as sign-in does. Only the password
 * counts, not a mailed temporary one (that is for signing in, and then becomes the password that must be
 * changed first): while the password is a temporary or one-time one, every signature is refused (issue 23).
 */
export async function confirmSignature(
  d: ThrottleDeps,
  user: UserRecord,
  password: string,
  sourceIp: string,
): Promise<void> {
  if (user.mustChangePassword) throw new ForbiddenError(API_ERR.mustChangePassword);
  const failures = await refuseWhileThrottled(d, user.email, sourceIp, d.clock.now());
  if (!(await verifyPassword(password, user.passwordHash))) {
    await recordSignInFailure(d, user.email, sourceIp);
    throw new ForbiddenError(SIGNATURE_PASSWORD_WRONG);
  }
  // a write only when there is something to forgive: most signatures follow no failure
  if (failures > 0) await forgiveSource(d, user.email, sourceIp);
}
