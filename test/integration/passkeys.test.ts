import { beforeAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { PASSKEY_TEXT } from '../../shared/domain/passkeys';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { api, baseUrl, jsonText, login, SEEDED_ADMIN_2, uniq } from '../support/api';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import { decideRoles, registerConfirmed } from '../support/identity';
import { chosenApprovers, savePackageId } from '../support/package-flow';
import { originOf, passkeySteps, storedPasskey, userEvents, userIdOf } from '../support/passkeys';
import { SoftAuthenticator } from '../support/soft-authenticator';

/**
 * Passkeys (decisions 322, 323) over HTTP on the local stack, with a software authenticator in the test:
 * added with the password, asked for at every sign-in, a signature's re-authentication with user
 * verification, removed by the owner or by two admins. Every attack is a clear 4xx that changes nothing:
 * a replayed ticket or challenge, another user's passkey, a cloned authenticator (its counter goes
 * backwards), a foreign origin or RP id, no user verification for a signature, a passkey removed while a
 * session holds it.
 */

const PASSWORD = 'Passkey-Owner-Pass-1';
/**
 * Each test makes its own accounts (registration, confirmation, two admins' grants, sign-ins: a dozen
 * deliberately slow password hashes), so no passkey reaches a seeded user another file signs in as. On a
 * busy machine that takes minutes; nothing here waits for time, only for answers.
 */
const SLOW = 300_000;
let u: Awaited<ReturnType<typeof seededUsers>>;
let steps: ReturnType<typeof passkeySteps>;
let origin: string;

/** A new account of `role`, confirmed and granted by the two seeded admins; no passkey yet. */
async function person(role: string) {
  const email = `${uniq('pk')}@example.com`;
  const r = await registerConfirmed({ name: `Pat ${uniq('p')}`, email, password: PASSWORD, userRole: role });
  await decideRoles([r.id]);
  return { id: r.id, email, token: await login(email, PASSWORD) };
}

/** A development package of the seeded design engineer, notified, with `approver` as Technical Leader. */
async function notifiedWith(approver: { id: string; token: string }): Promise<Package> {
  const res = await uploadPatch(u.designDev.token, 'dev');
  const pkg = await createPackage(u.designDev.token, res.id, 'DEV_UNSIGNED');
  await savePackageId(u.designDev.token, pkg.id, 78);
  const dccId = await createDcc(u.designDev.token);
  expect(
    (await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token })).status,
  ).toBe(200);
  const n = await api(`/packages/${pkg.id}/notify-approvers`, {
    method: 'POST',
    token: u.designDev.token,
    body: { approvers: chosenApprovers(u, pkg.type, 'approval', { TECHNICAL_LEADER: approver }) },
  });
  expect(n.status, JSON.stringify(n.body)).toBe(200);
  return pkg;
}

const historyOf = async (id: string) =>
  jsonText<{ action: string; actorId: string; details?: Record<string, unknown> }[]>(
    (await api<{ history: string }>(`/packages/${id}/history`, { token: u.lead.token })).body.history,
  );

beforeAll(async () => {
  u = await seededUsers();
  origin = originOf(baseUrl());
  steps = passkeySteps(baseUrl());
});

describe('adding a passkey and signing in with it', { timeout: SLOW }, () => {
  it('asks for the password first, then asks for the passkey at every sign-in, and records both', async () => {
    const alice = await person('TECHNICAL_LEADER');
    const auth = new SoftAuthenticator(origin);
    // a stolen session alone adds no way in: the password confirms the change (403 when wrong)
    const wrong = await api<{ errorMessage: string }>('/passkeys/registration-options', {
      method: 'POST',
      token: alice.token,
      body: { password: 'not-the-password-1' },
    });
    expect(wrong.status).toBe(403);
    expect((await steps.listed(alice.token)).passkeys).toEqual([]);

    const added = await steps.addPasskey(alice.token, auth, 'Work laptop', PASSWORD);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect((await steps.listed(alice.token)).passkeys.map((p) => p.name)).toEqual(['Work laptop']);

    // the password alone is no longer a session
    const first = await steps.firstFactor(alice.email, PASSWORD);
    expect(first.status).toBe(200);
    expect(first.body.token).toBeUndefined();
    expect(first.body.secondFactor).toMatchObject({ kind: 'passkey', ticket: expect.any(String) });

    const { second } = await steps.signIn(alice.email, PASSWORD, auth);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(userIdOf(second)).toBe(alice.id);
    const me = await api('/user/auth', { method: 'POST', token: second.body.token });
    expect(me.status).toBe(200);
    expect((await steps.listed(second.body.token)).passkeys[0]?.lastUsedAt).toEqual(expect.any(String));

    const events = await userEvents(alice.id);
    expect(events.map((e) => e.action)).toEqual(expect.arrayContaining(['PASSKEY_ADDED', 'SIGNED_IN']));
    expect(events.filter((e) => e.action === 'SIGNED_IN').at(-1)?.details).toMatchObject({
      method: 'password',
      secondFactor: 'passkey',
    });
  });

  it('refuses a replayed sign-in (the same ticket and assertion again) with 401, issuing nothing', async () => {
    const p = await person('RELIABILITY_ENGINEER');
    const auth = new SoftAuthenticator(origin);
    expect((await steps.addPasskey(p.token, auth, 'Key', PASSWORD)).status).toBe(201);
    const { ticket, response, second } = await steps.signIn(p.email, PASSWORD, auth);
    expect(second.status).toBe(200);
    const again = await steps.call<{ token?: string }>('/user/login/passkey', 'POST', null, {
      ticket,
      response,
    });
    expect(again.status).toBe(401);
    expect(again.body.token).toBeUndefined();
    expect(again.body.errorMessage).toBe(PASSKEY_TEXT.signInTicketGone);
  });

  it('refuses an answer for another origin or RP id, at sign-in and when adding, and stores nothing', async () => {
    const p = await person('RELIABILITY_ENGINEER');
    const auth = new SoftAuthenticator(origin);
    const phishing = await steps.addPasskey(p.token, auth, 'Phished', PASSWORD, {
      origin: 'https://evil.example',
    });
    expect(phishing.status).toBe(400);
    expect(phishing.body.errorMessage).toBe(PASSKEY_TEXT.registrationNotVerified);
    const otherRp = await steps.addPasskey(p.token, auth, 'Other RP', PASSWORD, { rpId: 'evil.example' });
    expect(otherRp.status).toBe(400);
    expect((await steps.listed(p.token)).passkeys).toEqual([]);

    const good = new SoftAuthenticator(origin);
    expect((await steps.addPasskey(p.token, good, 'Key', PASSWORD)).status).toBe(201);
    for (const how of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }]) {
      const { second } = await steps.signIn(p.email, PASSWORD, good, how);
      expect(second.status).toBe(401);
      expect(second.body).toMatchObject({
        errorMessage: PASSKEY_TEXT.notVerified,
        authError: PASSKEY_TEXT.notVerified,
      });
    }
  });

  it("refuses another user's passkey at sign-in and for a signature, and changes nothing", async () => {
    const alice = await person('TECHNICAL_LEADER');
    const bob = await person('TECHNICAL_LEADER');
    const aliceKey = new SoftAuthenticator(origin);
    const bobKey = new SoftAuthenticator(origin);
    expect((await steps.addPasskey(alice.token, aliceKey, 'Alice', PASSWORD)).status).toBe(201);
    expect((await steps.addPasskey(bob.token, bobKey, 'Bob', PASSWORD)).status).toBe(201);
    const aliceCounter = (await storedPasskey(aliceKey.ids[0]!))?.counter;

    // Bob's password, then Alice's passkey answering Bob's challenge
    const { second } = await steps.signIn(bob.email, PASSWORD, aliceKey);
    expect(second.status).toBe(401);
    expect(second.body.token).toBeUndefined();

    const bobSession = (await steps.signIn(bob.email, PASSWORD, bobKey)).second.body.token;
    const pkg = await notifiedWith({ id: bob.id, token: bobSession });
    const before = await historyOf(pkg.id);
    const proof = await steps.signatureProof(bobSession, aliceKey);
    const r = await api<{ errorMessage: string }>(`/packages/${pkg.id}/approve`, {
      method: 'POST',
      token: bobSession,
      body: { passkey: proof },
    });
    expect(r.status).toBe(403);
    expect(r.body.errorMessage).toBe(PASSKEY_TEXT.notVerified);
    expect(await historyOf(pkg.id)).toEqual(before);
    expect((await storedPasskey(aliceKey.ids[0]!))?.counter).toBe(aliceCounter);
  });

  it('refuses a cloned authenticator whose counter goes backwards, and records it', async () => {
    const p = await person('RELIABILITY_ENGINEER');
    const auth = new SoftAuthenticator(origin);
    expect((await steps.addPasskey(p.token, auth, 'Token', PASSWORD)).status).toBe(201);
    const clone = auth.clone();
    // the genuine one is used twice: the stored counter moves to 2
    expect((await steps.signIn(p.email, PASSWORD, auth)).second.status).toBe(200);
    expect((await steps.signIn(p.email, PASSWORD, auth)).second.status).toBe(200);
    expect((await storedPasskey(auth.ids[0]!))?.counter).toBe(2);
    // the copy still counts from where it was copied: 1
    const { second } = await steps.signIn(p.email, PASSWORD, clone);
    expect(second.status).toBe(401);
    expect(second.body.errorMessage).toBe(PASSKEY_TEXT.counterRegressed);
    expect((await storedPasskey(auth.ids[0]!))?.counter).toBe(2);
    const refused = (await userEvents(p.id)).filter((e) => e.action === 'PASSKEY_COUNTER_REFUSED');
    expect(refused).toHaveLength(1);
    expect(refused[0]?.details).toMatchObject({ storedCounter: 2, purpose: 'signIn' });
  });
});

describe('a passkey as the signature of a decision', { timeout: SLOW }, () => {
  it('approves a package with a user-verified passkey; the history names the method', async () => {
    const alice = await person('TECHNICAL_LEADER');
    const auth = new SoftAuthenticator(origin);
    expect((await steps.addPasskey(alice.token, auth, 'Laptop', PASSWORD)).status).toBe(201);
    const session = (await steps.signIn(alice.email, PASSWORD, auth)).second.body.token;
    const pkg = await notifiedWith({ id: alice.id, token: session });

    // no user verification (the authenticator only saw a touch): refused, nothing recorded
    const unverified = await api<{ errorMessage: string }>(`/packages/${pkg.id}/approve`, {
      method: 'POST',
      token: session,
      body: { passkey: await steps.signatureProof(session, auth, { userVerified: false }) },
    });
    expect(unverified.status).toBe(403);
    expect(unverified.body.errorMessage).toBe(PASSKEY_TEXT.noUserVerification);
    const before = await historyOf(pkg.id);

    const proof = await steps.signatureProof(session, auth);
    const approved = await api(`/packages/${pkg.id}/approve`, {
      method: 'POST',
      token: session,
      body: { passkey: proof },
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(202);
    const event = (await historyOf(pkg.id)).find((e) => e.action === 'APPROVED' && e.actorId === alice.id);
    expect(event?.details).toMatchObject({
      signatureMethod: 'passkey',
      signature: { action: 'approve', authenticatedBy: 'passkey' },
    });
    expect((await historyOf(pkg.id)).length).toBe(before.length + 1);

    // the same challenge and answer again: used once, refused
    const replay = await api<{ errorMessage: string }>(`/packages/${pkg.id}/reject`, {
      method: 'POST',
      token: session,
      body: { 'rejection-reason': 'replayed', passkey: proof },
    });
    expect(replay.status).toBe(403);
    expect(replay.body.errorMessage).toBe(PASSKEY_TEXT.ceremonyGone);
    expect((await historyOf(pkg.id)).length).toBe(before.length + 1);
  });

  it('refuses a proof made of two methods, and a password decision still records the password', async () => {
    const pkg = await notifiedWith({ id: u.lead.id, token: u.lead.token });
    const both = await api<{ errorMessage: string }>(`/packages/${pkg.id}/approve`, {
      method: 'POST',
      token: u.lead.token,
      body: { password: SEED_PASSWORD, reauthTicket: 'x' },
    });
    expect(both.status).toBe(400);
    const ok = await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: u.lead.token });
    expect(ok.status).toBe(202);
    const event = (await historyOf(pkg.id)).find((e) => e.action === 'APPROVED');
    expect(event?.details).toMatchObject({
      signatureMethod: 'password',
      signature: { authenticatedBy: 'password' },
    });
  });
});

describe('deleting an account that holds a passkey', { timeout: SLOW }, () => {
  it('deletes its passkey items in the same commit: the credential no longer names anyone', async () => {
    const p = await person('RELIABILITY_ENGINEER');
    const auth = new SoftAuthenticator(origin);
    expect((await steps.addPasskey(p.token, auth, 'Leaver laptop', PASSWORD)).status).toBe(201);
    const [id] = auth.ids;
    expect(await storedPasskey(id!)).toBeDefined();
    const del = await api('/admin/users', { method: 'DELETE', token: u.admin.token, body: [p.id] });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(await storedPasskey(id!)).toBeUndefined();
    // and the credential signs nobody in: the sign-in of the deleted account stops at the password
    expect((await steps.firstFactor(p.email, PASSWORD)).status).toBe(401);
  });
});

describe('removing a passkey', { timeout: SLOW }, () => {
  it('by its owner: confirmed with the password; the other sessions end, this one goes on', async () => {
    const p = await person('RELIABILITY_ENGINEER');
    const auth = new SoftAuthenticator(origin);
    expect((await steps.addPasskey(p.token, auth, 'Old phone', PASSWORD)).status).toBe(201);
    const viaPasskey = (await steps.signIn(p.email, PASSWORD, auth)).second.body.token;
    const id = auth.ids[0]!;
    const refused = await api(`/passkeys/${id}`, {
      method: 'DELETE',
      token: viaPasskey,
      body: { password: 'Wrong-password-9' },
    });
    expect(refused.status).toBe(403);
    expect((await steps.listed(viaPasskey)).passkeys).toHaveLength(1);
    const removed = await api<{ token: string }>(`/passkeys/${id}`, {
      method: 'DELETE',
      token: viaPasskey,
      body: { password: PASSWORD },
    });
    expect(removed.status).toBe(200);
    expect((await api('/user/auth', { method: 'POST', token: viaPasskey })).status).toBe(401);
    expect((await steps.listed(removed.body.token)).passkeys).toEqual([]);
    // no passkey left: the password is the whole sign-in again
    expect((await steps.firstFactor(p.email, PASSWORD)).body.token).toEqual(expect.any(String));
  });

  it('by two admins while a session holds it: the session ends, the pending sign-in and the passkey stop working', async () => {
    const p = await person('TECHNICAL_LEADER');
    const auth = new SoftAuthenticator(origin);
    expect((await steps.addPasskey(p.token, auth, 'Lost key', PASSWORD)).status).toBe(201);
    const held = (await steps.signIn(p.email, PASSWORD, auth)).second.body.token;
    const pending = await steps.firstFactor(p.email, PASSWORD);
    const id = auth.ids[0]!;
    const path = `/admin/users/${p.id}/passkeys/${id}/removal`;
    const body = { password: SEED_PASSWORD, reason: 'Reported lost on the train' };

    const proposed = await api<{ outcome: string }>(path, { method: 'POST', token: u.admin.token, body });
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
    expect(proposed.body.outcome).toBe('PROPOSED');
    // one admin alone changes nothing: the session and the passkey still work
    expect((await api('/user/auth', { method: 'POST', token: held })).status).toBe(200);
    const again = await api<{ errorMessage: string }>(path, { method: 'POST', token: u.admin.token, body });
    expect(again.status).toBe(403);
    expect(again.body.errorMessage).toBe(PASSKEY_TEXT.ownProposal);

    const admin2 = await login(SEEDED_ADMIN_2);
    const confirmed = await api<{ outcome: string }>(path, { method: 'POST', token: admin2, body });
    expect(confirmed.body.outcome).toBe('REMOVED');
    expect((await api('/user/auth', { method: 'POST', token: held })).status).toBe(401);
    const late = await steps.call('/user/login/passkey', 'POST', null, {
      ticket: pending.body.secondFactor!.ticket,
      response: auth.assert(pending.body.secondFactor!.publicKey),
    });
    expect(late.status).toBe(401);
    const methods = await api<{ passkeys: unknown[] }>(`/admin/users/${p.id}/sign-in-methods`, {
      token: admin2,
    });
    expect(methods.body.passkeys).toEqual([]);
    const actions = (await userEvents(p.id)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['PASSKEY_REMOVAL_PROPOSED', 'PASSKEY_REMOVED']));
  });

  it('is never an admin removing their own passkey that way', async () => {
    const r = await api<{ errorMessage: string }>(`/admin/users/${u.admin.id}/passkeys/AAAA/removal`, {
      method: 'POST',
      token: u.admin.token,
      body: { password: SEED_PASSWORD, reason: 'mine' },
    });
    expect(r.status).toBe(404);
  });
});
