import { ForbiddenError } from '../../../shared/domain/errors';
import { CEREMONY_SECONDS, PASSKEY_TEXT } from '../../../shared/domain/passkeys';
import type { Clock } from '../../ports/clock';
import type { Ceremony, CeremonyPurpose, PasskeyRepository } from '../../ports/passkey-repository';
import type { UserRecord } from '../../ports/user-repository';
import { assertionOptions, ceremonyHash, newCeremonyId, type WebAuthnConfig } from './webauthn';

/**
 * WebAuthn ceremonies the server starts and ends (decision 322): a challenge stored under the hash of a
 * random ceremony id, taken (deleted) by its one answer. The checks of the answer are passkey-assertion.ts.
 */

type CeremonyDeps = { clock: Clock; passkeys?: PasskeyPorts };

/** The passkey store and where passkeys are valid (decision 322). */
export interface PasskeyPorts {
  store: PasskeyRepository;
  webauthn: WebAuthnConfig;
}

/** The passkey ports; a fault (500) where a function was wired without them, so no check is ever skipped. */
export function passkeyPorts(d: { passkeys?: PasskeyPorts }): PasskeyPorts {
  if (!d.passkeys) throw new Error('passkeys are not wired into this function (composition)');
  return d.passkeys;
}

/** The answer that starts a ceremony in the browser. */
export interface CeremonyStart<O> {
  ceremonyId: string;
  expiresAt: string;
  publicKey: O;
}

/**
 * A challenge for the user's own passkeys, stored under the hash of a fresh ceremony id: single use,
 * `seconds` long; a signature's requires user verification (the sign-in's second factor prefers it).
 */
export async function startAssertion(
  d: CeremonyDeps,
  user: UserRecord,
  purpose: Exclude<CeremonyPurpose, 'register'>,
  seconds = CEREMONY_SECONDS,
  extra: Pick<Ceremony, 'tokenVersion' | 'method' | 'mustChangePassword'> = {},
) {
  const { store, webauthn } = passkeyPorts(d);
  const passkeys = await store.getAll(user.passkeyIds ?? []);
  if (passkeys.length === 0) throw new ForbiddenError(PASSKEY_TEXT.noPasskey);
  const uv = purpose === 'signature' ? 'required' : 'preferred';
  const publicKey = await assertionOptions(webauthn, passkeys, uv, seconds * 1000);
  const { id, hash } = newCeremonyId();
  const validUntil = new Date(d.clock.now().getTime() + seconds * 1000).toISOString();
  await store.putCeremony({
    idHash: hash,
    purpose,
    userId: user.id,
    challenge: publicKey.challenge,
    validUntil,
    ...extra,
  });
  return { ceremonyId: id, expiresAt: validUntil, publicKey };
}

/**
 * Takes (and so ends) the ceremony of `ceremonyId` when it is one of `purpose`, still valid and, when a
 * user is named, that user's; null otherwise. A second take finds nothing: a replayed answer fails here.
 */
export async function takeCeremony(
  d: CeremonyDeps,
  ceremonyId: string,
  purpose: CeremonyPurpose,
  userId?: string,
): Promise<Ceremony | null> {
  const c = await passkeyPorts(d).store.takeCeremony(ceremonyHash(ceremonyId));
  if (!c || c.purpose !== purpose) return null;
  if (userId !== undefined && c.userId !== userId) return null;
  return Date.parse(c.validUntil) > d.clock.now().getTime() ? c : null;
}
