import type { SignatureProof } from '../../../shared/api/contracts/packages';
import { BadRequestError, ForbiddenError } from '../../../shared/domain/errors';
import { PASSKEY_TEXT, passkeyRequiredFor } from '../../../shared/domain/passkeys';
import { SIGNATURE_PASSWORD_WRONG, type SignatureMethod } from '../../../shared/domain/signature-meanings';
import { API_ERR } from '../../../shared/messages';
import type { UserRecord } from '../../ports/user-repository';
import { verifyPassword } from '../password-hasher';
import { type PasskeyCheckDeps, passkeyUse } from './passkey-assertion';
import { forgiveSource, recordSignInFailure, refuseWhileThrottled, type ThrottleDeps } from './sign-in';

/**
 * The password check of an electronic signature (decision 141): the signed-in user re-enters the password
 * they sign in with. It shares the sign-in throttle: while the account is locked from this source the
 * answer is 429 as at sign-in, a wrong password is counted as a failed sign-in and answers 403 (not 401:
 * the session itself is fine), and the right one forgives this source as sign-in does. Only the password
 * counts, not a mailed temporary one (that is for signing in, and then becomes the password that must be
 * changed first): while the password is a temporary or one-time one, every signature is refused.
 */
export async function confirmPassword(
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

/**
 * Who signs (decision 322): the proof of a deciding call, a grant or a signed deletion. A password (as
 * decision 141), or a passkey assertion with user verification, or a company reauthentication ticket;
 * where the stage requires passkeys for the signer's role, only a passkey. Answers the method that
 * confirmed the signature, which the decision's audit event records.
 */
export async function confirmSignature(
  d: PasskeyCheckDeps,
  user: UserRecord,
  proof: SignatureProof,
  sourceIp: string,
): Promise<SignatureMethod> {
  if (
    proof.passkey === undefined &&
    passkeyRequiredFor(user.userRole, d.passkeys?.webauthn.required ?? false)
  )
    throw new ForbiddenError(PASSKEY_TEXT.requiredForSignature, { passkeyRequired: true });
  return confirmIdentity(d, user, proof, sourceIp, 'signature');
}

/**
 * The same proof without the stage's passkey rule: what confirms a change of one's own sign-in methods
 * (adding or removing a passkey), so a user who must sign with a passkey can add the first one with the
 * password. A passkey here needs user verification too.
 */
export async function confirmIdentity(
  d: PasskeyCheckDeps,
  user: UserRecord,
  proof: SignatureProof,
  sourceIp: string,
  purpose: 'signature' | 'account' = 'account',
): Promise<SignatureMethod> {
  if (proof.password !== undefined) {
    await confirmPassword(d, user, proof.password, sourceIp);
    return 'password';
  }
  if (proof.passkey !== undefined) {
    if (user.mustChangePassword) throw new ForbiddenError(API_ERR.mustChangePassword);
    await passkeyUse(d, user, proof.passkey, { purpose, sourceIp });
    return 'passkey';
  }
  if (proof.reauthTicket !== undefined) {
    // the company sign-on's fresh sign-in (decision 315); a stage without one has no tickets
    if (!d.companyReauth)
      throw new BadRequestError(
        'A company sign-in ticket is not available on this portal: sign with your password',
      );
    if (user.mustChangePassword) throw new ForbiddenError(API_ERR.mustChangePassword);
    await d.companyReauth(user, proof.reauthTicket);
    return 'company';
  }
  throw new BadRequestError('Sign with your password or a passkey');
}
