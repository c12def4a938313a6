import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { describe, expect, it } from 'vitest';
import { PASSKEY_TEXT, passkeyRoles, removalStep } from '../../../shared/domain/passkeys';
import { ROLES } from '../../../shared/domain/roles';
import { SoftAuthenticator } from '../../../test/support/soft-authenticator';
import { makeUsers, PASSWORD, SCRYPT_TIMEOUT_MS, TEST_WEBAUTHN } from '../../testing/users.fixtures';

const IP = '203.0.113.9';
const ORIGIN = TEST_WEBAUTHN.origins[0]!;

/** A user of `role` holding one passkey of `auth`, over the memory adapters. */
async function withPasskey(kit: ReturnType<typeof makeUsers>, role: (typeof ROLES)[number]) {
  const u = await kit.account(role);
  const auth = new SoftAuthenticator(ORIGIN);
  const start = await kit.service.startPasskeyRegistration(u, { password: PASSWORD }, IP);
  await kit.service.addPasskey(await kit.current(u), {
    ceremonyId: start.ceremonyId,
    name: 'Laptop',
    response: auth.register(start.publicKey) as never,
  });
  return { u: await kit.current(u), auth };
}

/** A signature's passkey proof of `auth` for `u`. */
async function proof(
  kit: ReturnType<typeof makeUsers>,
  u: Awaited<ReturnType<typeof kit.current>>,
  auth: SoftAuthenticator,
) {
  const c = await kit.service.passkeySignatureOptions(u);
  return { ceremonyId: c.ceremonyId, response: auth.assert(c.publicKey) as never };
}

describe('who must sign with a passkey (decision 322)', () => {
  it('is every role the approval policy lets approve, sign or deliver, and the admins', () => {
    expect([...passkeyRoles()].sort()).toEqual([...ROLES].sort());
  });

  it('with the stage setting on, a signer without a passkey is refused and told how to add one', {
    timeout: SCRYPT_TIMEOUT_MS,
  }, async () => {
    const kit = makeUsers({}, { required: true });
    const signer = await kit.account('SW_FW_RELEASE_ENGINEER');
    await expect(kit.service.confirmSignature(signer, { password: PASSWORD }, IP)).rejects.toMatchObject({
      statusCode: 403,
      message: PASSKEY_TEXT.requiredForSignature,
      extra: { passkeyRequired: true },
    });
    expect(kit.audit.actions()).toEqual([]);
    expect((await kit.service.listPasskeys(signer)).requiredForSignatures).toBe(true);
  });

  it('with the setting on, a passkey signs and a password does not; with it off, both do', {
    timeout: SCRYPT_TIMEOUT_MS,
  }, async () => {
    const on = makeUsers({}, { required: true });
    const { u, auth } = await withPasskey(on, 'TECHNICAL_LEADER');
    await expect(on.service.confirmSignature(u, { passkey: await proof(on, u, auth) }, IP)).resolves.toBe(
      'passkey',
    );
    await expect(on.service.confirmSignature(u, { password: PASSWORD }, IP)).rejects.toMatchObject({
      statusCode: 403,
    });
    const off = makeUsers();
    const other = await withPasskey(off, 'TECHNICAL_LEADER');
    await expect(off.service.confirmSignature(other.u, { password: PASSWORD }, IP)).resolves.toBe('password');
  });
});

describe('the passkey step of a sign-in', () => {
  it('asks for the passkey after the password and issues the session only after it', {
    timeout: SCRYPT_TIMEOUT_MS,
  }, async () => {
    const kit = makeUsers();
    const { u, auth } = await withPasskey(kit, 'RELIABILITY_ENGINEER');
    const first = await kit.service.login(u.email, PASSWORD, IP);
    if (!('secondFactor' in first)) throw new Error('no second factor');
    const response = auth.assert(first.secondFactor.publicKey) as unknown as AuthenticationResponseJSON;
    const session = await kit.service.loginPasskey(first.secondFactor.ticket, response, IP);
    expect((await kit.service.authenticate(session.token)).id).toBe(u.id);
    // the same ticket again: single use
    await expect(kit.service.loginPasskey(first.secondFactor.ticket, response, IP)).rejects.toMatchObject({
      statusCode: 401,
      message: PASSKEY_TEXT.signInTicketGone,
    });
  });

  it('refuses a clone whose counter went backwards, records it and keeps the stored counter', {
    timeout: SCRYPT_TIMEOUT_MS,
  }, async () => {
    const kit = makeUsers();
    const { u, auth } = await withPasskey(kit, 'RELIABILITY_ENGINEER');
    const clone = auth.clone();
    await kit.service.confirmSignature(u, { passkey: await proof(kit, u, auth) }, IP);
    await expect(
      kit.service.confirmSignature(u, { passkey: await proof(kit, u, clone) }, IP),
    ).rejects.toMatchObject({ statusCode: 403, message: PASSKEY_TEXT.counterRegressed });
    expect(kit.audit.actions()).toContain('PASSKEY_COUNTER_REFUSED');
    expect((await kit.passkeys.get(auth.ids[0]!))?.counter).toBe(1);
    expect((await kit.users.getThrottle(`login#${u.email}#${IP}`)).failures).toBe(1);
  });
});

describe('two admins remove a lost passkey (decision 323)', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  const proposal = (by: string, at = now) => ({
    proposedById: by,
    proposedByName: by,
    proposedByEmail: `${by}@example.com`,
    proposedAt: at.toISOString(),
    reason: 'lost',
  });

  it('the first admin proposes, another confirms, the proposer cannot, nobody for themselves', () => {
    expect(removalStep({ id: 'a1' }, { id: 'u' }, {}, now)).toEqual({ kind: 'PROPOSE' });
    expect(removalStep({ id: 'a2' }, { id: 'u' }, { removalProposal: proposal('a1') }, now).kind).toBe(
      'CONFIRM',
    );
    expect(removalStep({ id: 'a1' }, { id: 'u' }, { removalProposal: proposal('a1') }, now)).toMatchObject({
      kind: 'REFUSED',
      reason: PASSKEY_TEXT.ownProposal,
    });
    expect(removalStep({ id: 'a1' }, { id: 'a1' }, {}, now)).toMatchObject({ kind: 'REFUSED' });
  });

  it('a proposal lapses after seven days: the next admin proposes again', () => {
    const old = proposal('a1', new Date(now.getTime() - 8 * 24 * 3600 * 1000));
    expect(removalStep({ id: 'a2' }, { id: 'u' }, { removalProposal: old }, now)).toEqual({
      kind: 'PROPOSE',
    });
  });
});

describe('deleting an account', () => {
  it('deletes its passkeys with it: no credential is left naming a deleted account', {
    timeout: SCRYPT_TIMEOUT_MS,
  }, async () => {
    // Prepare
    const kit = makeUsers();
    const { u } = await withPasskey(kit, 'TECHNICAL_LEADER');
    const admin = await kit.account('ADMIN');
    // a second Technical Leader: deleting the only one would take a second admin (decision 357)
    await kit.account('TECHNICAL_LEADER');
    const ids = u.passkeyIds ?? [];
    expect(ids).toHaveLength(1);
    expect(await kit.passkeys.getAll(ids)).toHaveLength(1);
    // Act
    await kit.service.deleteUsers(admin, { ids: [u.id], password: PASSWORD, reason: 'left' });
    // Assess
    expect(await kit.users.getById(u.id)).toBeNull();
    expect(await kit.passkeys.get(ids[0]!)).toBeNull();
  });
});
