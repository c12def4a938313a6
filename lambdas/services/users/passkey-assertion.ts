import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { PasskeyProof } from '../../../shared/api/contracts/passkeys';
import { type AppError, ConflictError, ForbiddenError } from '../../../shared/domain/errors';
import { PASSKEY_TEXT } from '../../../shared/domain/passkeys';
import type { Ceremony, PasskeyRecord } from '../../ports/passkey-repository';
import type { UserRecord, UserRepository } from '../../ports/user-repository';
import { userEvent } from './common';
import { type PasskeyPorts, passkeyPorts, takeCeremony } from './passkey-ceremony';
import { forgiveSource, recordSignInFailure, refuseWhileThrottled, type ThrottleDeps } from './sign-in';
import { verifyAssertion } from './webauthn';

/** What checking a passkey use needs: the sign-in throttle, the users (a refused counter's event) and the store. */
export type PasskeyCheckDeps = ThrottleDeps & {
  users: Pick<UserRepository, 'record'>;
  passkeys?: PasskeyPorts;
  /**
   * takes a company reauthentication ticket of `user` (single use) or throws 403; absent on a stage
   * without company sign-on (decision 315)
   */
  companyReauth?: (user: UserRecord, ticket: string) => Promise<void>;
};

/**
 * The passkey proof of a signature or an account change by `user` (user verification required): the
 * ceremony taken, the passkey one of the user's own, the assertion verified, the use recorded. Every
 * refusal is a 403 counted by the sign-in throttle, and changes nothing but that count.
 */
export async function passkeyUse(
  d: PasskeyCheckDeps,
  user: UserRecord,
  proof: PasskeyProof,
  opts: { purpose: 'signature' | 'account'; sourceIp: string },
): Promise<PasskeyRecord> {
  const failures = await refuseWhileThrottled(d, user.email, opts.sourceIp, d.clock.now());
  const fail = (text: string) => new ForbiddenError(text);
  const ceremony = await takeCeremony(d, proof.ceremonyId, 'signature', user.id);
  if (!ceremony) {
    await recordSignInFailure(d, user.email, opts.sourceIp);
    throw fail(PASSKEY_TEXT.ceremonyGone);
  }
  return verifiedUse(d, user, ceremony, proof.response as AuthenticationResponseJSON, {
    requireUserVerification: true,
    sourceIp: opts.sourceIp,
    failures,
    fail,
  });
}

/**
 * Verifies `response` for the ceremony's challenge with one of `user`'s passkeys and records the use (the
 * counter only forward). Another user's passkey, a removed one, a foreign origin or RP id, a bad
 * signature, a missing user verification and a counter going backwards are refused with `fail(text)`
 * and counted as failed sign-ins; the last is also recorded in the user's audit trail.
 */
export async function verifiedUse(
  d: PasskeyCheckDeps,
  user: UserRecord,
  ceremony: Ceremony,
  response: AuthenticationResponseJSON,
  opts: {
    requireUserVerification: boolean;
    sourceIp: string;
    failures: number;
    fail: (t: string) => AppError;
  },
): Promise<PasskeyRecord> {
  const { store, webauthn } = passkeyPorts(d);
  const refuse = async (text: string) => {
    await recordSignInFailure(d, user.email, opts.sourceIp);
    return opts.fail(text);
  };
  const passkey = await store.get(response.id);
  // the account must list it: a passkey of someone else, or one removed since, proves nothing here
  if (!passkey || passkey.userId !== user.id || !(user.passkeyIds ?? []).includes(passkey.id))
    throw await refuse(PASSKEY_TEXT.notVerified);
  const r = await verifyAssertion(
    webauthn,
    response,
    ceremony.challenge,
    passkey,
    opts.requireUserVerification,
  );
  if (!r.ok) {
    if (r.reason === 'counter')
      await d.users.record([
        userEvent(
          user,
          'PASSKEY_COUNTER_REFUSED',
          `a use of the passkey "${passkey.name}" was refused: its signature counter did not move forward, as a cloned authenticator's would`,
          {
            passkeyId: passkey.id,
            passkeyName: passkey.name,
            storedCounter: passkey.counter,
            purpose: ceremony.purpose,
          },
        ),
      ]);
    throw await refuse(
      r.reason === 'counter'
        ? PASSKEY_TEXT.counterRegressed
        : r.reason === 'userVerification'
          ? PASSKEY_TEXT.noUserVerification
          : PASSKEY_TEXT.notVerified,
    );
  }
  const at = d.clock.now().toISOString();
  // two uses read the same counter: only one moves it, the other is told to try again
  if (!(await store.recordUse(passkey.id, passkey.counter, r.newCounter, at)))
    throw new ConflictError('This passkey was used at the same moment elsewhere; try again.');
  if (opts.failures > 0) await forgiveSource(d, user.email, opts.sourceIp);
  return { ...passkey, counter: r.newCounter, lastUsedAt: at };
}
