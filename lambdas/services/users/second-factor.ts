import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { UnauthorizedError } from '../../../shared/domain/errors';
import { PASSKEY_TEXT } from '../../../shared/domain/passkeys';
import type { UserDeps } from './common';
import { verifiedUse } from './passkey-assertion';
import { takeCeremony } from './passkey-ceremony';
import { issueSession, refuseWhileThrottled, type SessionResult, type SignInMethod } from './sign-in';

/** An answer of the passkey step that ends nothing but the attempt: 401 with the spec's `authError`. */
const signInRefusal = (text: string) => new UnauthorizedError(text, { authError: text });

/**
 * The second step of a sign-in (decision 322): the ticket of the first factor (single use, five minutes,
 * bound to the account and its token version) and a passkey assertion of the same account. The session
 * is issued only now, exactly as after a password sign-in. A used or expired ticket, a session ended
 * meanwhile (logout, password change, a passkey removed) and any refused assertion answer 401 and issue
 * nothing; the refusals of the assertion count as failed sign-ins.
 */
export async function finishPasskeySignIn(
  d: UserDeps,
  ticket: string,
  response: AuthenticationResponseJSON,
  sourceIp: string,
): Promise<SessionResult> {
  const ceremony = await takeCeremony(d, ticket, 'signIn');
  const user = ceremony ? await d.users.getById(ceremony.userId) : null;
  if (!ceremony || !user || user.tokenVersion !== ceremony.tokenVersion)
    throw signInRefusal(PASSKEY_TEXT.signInTicketGone);
  const failures = await refuseWhileThrottled(d, user.email, sourceIp, d.clock.now());
  const passkey = await verifiedUse(d, user, ceremony, response, {
    requireUserVerification: false,
    sourceIp,
    failures,
    fail: signInRefusal,
  });
  return issueSession(
    d,
    {
      user,
      method: (ceremony.method ?? 'password') as SignInMethod,
      tokenVersion: user.tokenVersion,
      mustChangePassword: ceremony.mustChangePassword === true,
      sourceIp,
    },
    { kind: 'passkey', passkeyId: passkey.id, passkeyName: passkey.name },
  );
}
