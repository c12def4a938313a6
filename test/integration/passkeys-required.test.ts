import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { PASSKEY_TEXT } from '../../shared/domain/passkeys';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { jsonText, SEEDED_ADMIN_2 } from '../support/api';
import { type DirectUser, directUsersAt } from '../support/direct-user-records';
import { approversFor } from '../support/package-flow';
import { originOf, passkeySteps } from '../support/passkeys';
import { SoftAuthenticator } from '../support/soft-authenticator';
import { type KitUser, type KitUsers, StackKit } from '../support/stack-kit';
import { type StackProcess, startStackProcess } from '../support/stack-process';

/**
 * A stage that requires passkeys (decision 322, PASSKEYS_REQUIRED=true), on a local stack of this file's
 * own: a signer without a passkey is refused with a clear 403 that says where to add one, and nothing is
 * recorded; after a real WebAuthn ceremony (a software authenticator answering the portal's challenges)
 * the same signer signs with the passkey. Nobody is locked out: the seeded break-glass admins still sign
 * in with the password, add a passkey with it, and then sign with the passkey.
 */
const SLOW = 300_000;
let stack: StackProcess;
let kit: StackKit;
let u: KitUsers;
let steps: ReturnType<typeof passkeySteps>;
let origin: string;

beforeAll(async () => {
  stack = await startStackProcess({ PASSKEYS_REQUIRED: 'true' });
  kit = new StackKit(stack.url);
  u = await kit.seeded();
  origin = originOf(stack.url);
  steps = passkeySteps(stack.url);
}, SLOW);
afterAll(async () => {
  await stack?.stop();
});

const historyOf = async (id: string, token: string) =>
  jsonText<{ action: string; actorId: string; details?: Record<string, unknown> }[]>(
    (await kit.must<{ history: string }>(200, `/packages/${id}/history`, { token })).body.history,
  );

/** The refusal a stage requiring passkeys answers a signature by anything else. */
function expectPasskeyRequired(r: { status: number; body: Record<string, unknown> }) {
  expect(r.status, JSON.stringify(r.body)).toBe(403);
  expect(r.body.errorMessage).toBe(PASSKEY_TEXT.requiredForSignature);
  expect(r.body.errorMessage).toContain('Settings → Passkeys');
  expect(r.body.passkeyRequired).toBe(true);
}

/** Adds a passkey of a new software authenticator to `who`, confirmed with the seeded password. */
async function withPasskey(who: KitUser, name: string): Promise<SoftAuthenticator> {
  const auth = new SoftAuthenticator(origin);
  const added = await steps.addPasskey(who.token, auth, name, SEED_PASSWORD);
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return auth;
}

/**
 * A DEV_SIGNED package waiting for `signer`'s signature: every seeded approver approved with a passkey (the
 * seeded release engineer among them, so the signer is a second release engineer who holds none yet).
 */
async function awaitingSignature(signer: DirectUser): Promise<Package> {
  const pkg = await kit.draft(u, 'DEV_SIGNED');
  const approvers = approversFor(u, pkg.type);
  await kit.must(200, `/packages/${pkg.id}/notify-approvers`, {
    method: 'POST',
    token: u.designDev.token,
    body: { approvers: approvers.map(({ role, id }) => ({ role, id })), signer: signer.id },
  });
  for (const who of approvers) {
    const auth = keys.get(who.id) ?? (await withPasskey(who, `${who.email} laptop`));
    keys.set(who.id, auth);
    const r = await steps.call(`/packages/${pkg.id}/approve`, 'POST', who.token, {
      passkey: await steps.signatureProof(who.token, auth),
    });
    expect([200, 202], JSON.stringify(r.body)).toContain(r.status);
  }
  return kit.waitStatus(pkg.id, u.designDev.token, 'AWAITING_SIGNATURE');
}
const keys = new Map<string, SoftAuthenticator>();

describe('a stage that requires passkeys', { timeout: SLOW }, () => {
  it('refuses an approver’s password and says where to add a passkey; nothing is recorded', async () => {
    const pkg = await kit.draft(u, 'DEV_UNSIGNED');
    await kit.must(200, `/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: kit.notifyBody(u, pkg),
    });
    const before = await historyOf(pkg.id, u.lead.token);
    const r = await steps.call(`/packages/${pkg.id}/approve`, 'POST', u.lead.token, {
      password: SEED_PASSWORD,
    });
    expectPasskeyRequired(r);
    expect(await historyOf(pkg.id, u.lead.token)).toEqual(before);
    expect((await kit.details(pkg.id, u.lead.token)).status).toBe('PENDING_APPROVAL');
  });

  it('refuses a signer without a passkey, then signs with the passkey they add; the history names it', async () => {
    const signer = (await directUsersAt(stack, 1, 'SW_FW_RELEASE_ENGINEER', 'Rae Release'))[0]!;
    const pkg = await awaitingSignature(signer);
    // Settings → Passkeys tells the signer before any attempt
    const listed = await steps.listed(signer.token);
    expect(listed).toMatchObject({ passkeys: [], requiredForSignatures: true });

    const before = await historyOf(pkg.id, signer.token);
    for (const proof of [{ password: SEED_PASSWORD }, { reauthTicket: 'a-company-ticket' }]) {
      const refused = await steps.call(`/packages/${pkg.id}/generate-signed`, 'POST', signer.token, proof);
      expectPasskeyRequired(refused);
    }
    expect(await historyOf(pkg.id, signer.token)).toEqual(before);
    expect((await kit.details(pkg.id, signer.token)).status).toBe('AWAITING_SIGNATURE');

    // the password still confirms adding the first passkey: the requirement locks nobody out of it
    const auth = await withPasskey(signer, 'Release laptop');
    const signed = await steps.call(`/packages/${pkg.id}/generate-signed`, 'POST', signer.token, {
      passkey: await steps.signatureProof(signer.token, auth),
    });
    expect([200, 202], JSON.stringify(signed.body)).toContain(signed.status);
    await kit.waitStatus(pkg.id, signer.token, 'SIGNED');
    const event = (await historyOf(pkg.id, signer.token)).find((e) => e.action === 'SIGNED');
    expect(event).toMatchObject({
      actorId: signer.id,
      details: { signatureMethod: 'passkey', signature: { authenticatedBy: 'passkey' } },
    });
  });

  it('does not lock out the break-glass admins: password sign-in, a passkey added, a signed deletion', async () => {
    // both seeded admins sign in with the password alone (no passkey yet, so no second step)
    for (const email of [u.admin.email, SEEDED_ADMIN_2]) {
      const first = await steps.firstFactor(email, SEED_PASSWORD);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body.token).toEqual(expect.any(String));
      expect(first.body.secondFactor).toBeUndefined();
    }
    const pkg = await kit.notified(u, 'DEV_UNSIGNED');
    const del = (body: Record<string, unknown>) =>
      steps.call('/admin/packages', 'DELETE', u.admin.token, {
        ids: [pkg.id],
        reason: 'Wrong resource',
        ...body,
      });
    // an admin's signed deletion is a signature too: the password is refused, the package stays
    expectPasskeyRequired(await del({ password: SEED_PASSWORD }));
    expect((await kit.details(pkg.id, u.designDev.token)).status).toBe('PENDING_APPROVAL');

    const auth = await withPasskey(u.admin, 'Admin key');
    // with a passkey the admin now signs in in two steps, and the second step gives a session
    const { second } = await steps.signIn(u.admin.email, SEED_PASSWORD, auth);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    const deleted = await del({ passkey: await steps.signatureProof(u.admin.token, auth) });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect((await kit.call(`/packages/${pkg.id}/details`, { token: u.designDev.token })).status).toBe(404);
  });
});
