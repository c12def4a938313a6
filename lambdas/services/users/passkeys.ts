import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { SignatureProof } from '../../../shared/api/contracts/packages';
import type { AddPasskeyRequest, PasskeyView } from '../../../shared/api/contracts/passkeys';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../../shared/domain/errors';
import {
  CEREMONY_SECONDS,
  MAX_PASSKEYS,
  PASSKEY_TEXT,
  passkeyRequiredFor,
  passkeyRoles,
} from '../../../shared/domain/passkeys';
import type { PasskeyRecord } from '../../ports/passkey-repository';
import type { UserRecord } from '../../ports/user-repository';
import { type UserDeps, userEvent } from './common';
import { passkeyPorts, startAssertion, takeCeremony } from './passkey-ceremony';
import { confirmIdentity } from './signature-check';
import { newCeremonyId, registrationOptions, verifyNewCredential } from './webauthn';

/** Settings → Passkeys (decision 322): add, list, rename and remove one's own passkeys. */

/** A passkey as its owner sees it (never the key). */
export const passkeyView = (p: PasskeyRecord): PasskeyView => ({
  id: p.id,
  name: p.name,
  createdAt: p.createdAt,
  ...(p.lastUsedAt ? { lastUsedAt: p.lastUsedAt } : {}),
  ...(p.deviceType ? { deviceType: p.deviceType } : {}),
  ...(p.backedUp !== undefined ? { backedUp: p.backedUp } : {}),
});

/** The caller's passkeys, and whether their role must sign with one on this stage. */
export async function listPasskeys(d: UserDeps, user: UserRecord) {
  const { store, webauthn } = passkeyPorts(d);
  const passkeys = await store.getAll(user.passkeyIds ?? []);
  return {
    passkeys: passkeys.map(passkeyView),
    requiredForSignatures: passkeyRequiredFor(user.userRole, webauthn.required),
    stageRequiresPasskeys: webauthn.required,
    requiredRoles: webauthn.required ? [...passkeyRoles()] : [],
  };
}

/**
 * Starts adding a passkey: the caller confirms who they are first (the password, a passkey or a fresh
 * company sign-in; a stolen session alone adds no way in), then gets a registration challenge, single use,
 * two minutes. Their passkeys are excluded, so one authenticator is not registered twice.
 */
export async function startRegistration(
  d: UserDeps,
  user: UserRecord,
  proof: SignatureProof,
  sourceIp: string,
) {
  const { store, webauthn } = passkeyPorts(d);
  if ((user.passkeyIds?.length ?? 0) >= MAX_PASSKEYS) throw new ConflictError(PASSKEY_TEXT.tooMany);
  await confirmIdentity(d, user, proof, sourceIp);
  const existing = await store.getAll(user.passkeyIds ?? []);
  const publicKey = await registrationOptions(webauthn, user, existing, CEREMONY_SECONDS * 1000);
  const { id, hash } = newCeremonyId();
  const validUntil = new Date(d.clock.now().getTime() + CEREMONY_SECONDS * 1000).toISOString();
  await store.putCeremony({
    idHash: hash,
    purpose: 'register',
    userId: user.id,
    challenge: publicKey.challenge,
    validUntil,
  });
  return { ceremonyId: id, expiresAt: validUntil, publicKey };
}

/** Registers the new credential of a registration ceremony: verified by the library, stored with the account. */
export async function addPasskey(
  d: UserDeps,
  user: UserRecord,
  req: AddPasskeyRequest,
): Promise<PasskeyView> {
  const { store, webauthn } = passkeyPorts(d);
  const ceremony = await takeCeremony(d, req.ceremonyId, 'register', user.id);
  if (!ceremony) throw new BadRequestError(PASSKEY_TEXT.ceremonyGone);
  const credential = await verifyNewCredential(
    webauthn,
    req.response as RegistrationResponseJSON,
    ceremony.challenge,
  );
  if (!credential) throw new BadRequestError(PASSKEY_TEXT.registrationNotVerified);
  const ids = user.passkeyIds ?? [];
  if (ids.length >= MAX_PASSKEYS) throw new ConflictError(PASSKEY_TEXT.tooMany);
  const at = d.clock.now().toISOString();
  const passkey: PasskeyRecord = { ...credential, userId: user.id, name: req.name, createdAt: at };
  const next: UserRecord = {
    ...user,
    passkeyIds: [...ids, passkey.id],
    updatedAt: at,
    version: user.version + 1,
  };
  // the passkey, the account and the event commit together (decision 283)
  const added = userEvent(
    user,
    'PASSKEY_ADDED',
    `adds the passkey "${passkey.name}": from now on a sign-in asks for a passkey after the first factor`,
    {
      passkeyId: passkey.id,
      passkeyName: passkey.name,
      deviceType: passkey.deviceType,
      passkeys: ids.length + 1,
    },
  );
  const result = await store.add(passkey, next, user.version, { events: [added] });
  if (result === 'taken') throw new ConflictError(PASSKEY_TEXT.alreadyRegistered);
  if (result === 'conflict')
    throw new ConflictError('Your account was changed meanwhile; reload and try again');
  return passkeyView(passkey);
}

/** One of the caller's own passkeys, or 404 (another user's is not named to them). */
async function ownPasskey(d: UserDeps, user: UserRecord, id: string): Promise<PasskeyRecord> {
  const p = await passkeyPorts(d).store.get(id);
  if (!p || p.userId !== user.id || !(user.passkeyIds ?? []).includes(id))
    throw new NotFoundError(PASSKEY_TEXT.notFound);
  return p;
}

export async function renamePasskey(
  d: UserDeps,
  user: UserRecord,
  id: string,
  name: string,
): Promise<PasskeyView> {
  const p = await ownPasskey(d, user, id);
  const renamed = userEvent(user, 'PASSKEY_RENAMED', `renames the passkey "${p.name}" to "${name}"`, {
    passkeyId: id,
    before: p.name,
    after: name,
  });
  if (!(await passkeyPorts(d).store.update(id, user.id, { name }, { events: [renamed] })))
    throw new NotFoundError(PASSKEY_TEXT.notFound);
  return passkeyView({ ...p, name });
}

/**
 * Removes one of the caller's passkeys, confirmed like adding one. Every session of the account ends with
 * it (a session may have been opened with that passkey); the caller's own goes on with the new token.
 */
export async function removeOwnPasskey(
  d: UserDeps,
  user: UserRecord,
  id: string,
  proof: SignatureProof,
  sourceIp: string,
): Promise<{ token: string }> {
  const p = await ownPasskey(d, user, id);
  await confirmIdentity(d, user, proof, sourceIp);
  // the proof may have been a passkey: its use moved nothing on the user record, read again all the same
  const current = (await d.users.getById(user.id)) ?? user;
  const at = d.clock.now().toISOString();
  const next: UserRecord = {
    ...current,
    passkeyIds: (current.passkeyIds ?? []).filter((x) => x !== id),
    tokenVersion: current.tokenVersion + 1,
    updatedAt: at,
    version: current.version + 1,
  };
  const removed = userEvent(
    user,
    'PASSKEY_REMOVED',
    `removes the passkey "${p.name}"; every session of the account ends with it`,
    { passkeyId: id, passkeyName: p.name, passkeys: next.passkeyIds?.length ?? 0, removedBy: 'owner' },
  );
  if (!(await passkeyPorts(d).store.remove(p, next, current.version, { events: [removed] })))
    throw new ConflictError('Your account was changed meanwhile; reload and try again');
  return { token: await d.tokens.issue({ sub: user.id, tv: next.tokenVersion }, d.clock.now()) };
}

/** A challenge for a signature (user verification required) over the caller's passkeys. */
export function signatureOptions(d: UserDeps, user: UserRecord) {
  if (!user.passkeyIds?.length) throw new ForbiddenError(PASSKEY_TEXT.noPasskey);
  return startAssertion(d, user, 'signature');
}
