import { readFileSync, rmSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { APPROVAL_POLICY } from '../../shared/domain/approval-policy';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import {
  SIGNATURE_MEANINGS,
  SIGNATURE_PASSWORD_REQUIRED,
  SIGNATURE_PASSWORD_WRONG,
} from '../../shared/domain/signature-meanings';
import { api, jsonText, login, uniq } from '../support/api';
import { createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import { decideRoles, registerConfirmed } from '../support/identity';
import {
  approveAllButLast,
  approversFor,
  downloadXml,
  lastApprover,
  portalKey,
  prepareAndNotify,
  runVerifier,
  seededDeliverer,
  seededSigner,
  waitForStatus,
} from '../support/package-flow';

/**
 * decision 141: every deciding call is an electronic signature. It carries the signer's
 * password (400 without, 403 when wrong, and nothing changes), a wrong one counts as a failed sign-in,
 * and the right one records printed name, role, UTC time and meaning in the audit trail and, for the
 * approvals and the release signature, in the XML's approval record, which the verifier accepts.
 */

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
});

interface Event {
  action: string;
  actorName: string;
  actorRole: string;
  details?: { signature?: Record<string, string> };
}
const historyOf = async (id: string) =>
  jsonText<Event[]>(
    (await api<{ history: string }>(`/packages/${id}/history`, { token: u.lead.token })).body.history,
  );
async function packageOf(id: string, stage: 'dev' | 'release'): Promise<Package> {
  const r = await api<{ packages: string }>(`/${stage}/packages`, { token: u.lead.token });
  return jsonText<Package[]>(r.body.packages).find((p) => p.id === id)!;
}
const post = (path: string, token: string, body: Record<string, unknown>) =>
  api<{ errorMessage?: string }>(path, { method: 'POST', token, body });

/** Every deciding call, with the body it needs besides the password. */
const DECIDING = (id: string) =>
  [
    [`/packages/${id}/approve`, {}],
    [`/packages/${id}/reject`, { 'rejection-reason': 'header wrong' }],
    [`/packages/${id}/generate-signed`, {}],
    [`/packages/${id}/reject-signing`, { 'rejection-reason': 'not this one' }],
    [`/delivery/packages/${id}/notify-approvers`, { approvers: [{ role: 'TECHNICAL_LEADER', id: 'x' }] }],
    [`/delivery/packages/${id}/approve`, {}],
    [`/delivery/packages/${id}/reject`, { 'rejection-reason': 'not this week' }],
  ] as const;

async function notifiedPackage(type: 'DEV_UNSIGNED' | 'RELEASE_SIGNED'): Promise<Package> {
  const stage = type === 'DEV_UNSIGNED' ? 'dev' : 'release';
  const res = await uploadPatch(u.designDev.token, stage);
  const pkg = await createPackage(u.designDev.token, res.id, type);
  await prepareAndNotify(u, pkg);
  return pkg;
}

describe('a deciding call without the password', () => {
  it('is a 400 naming the password on every deciding route, and changes nothing', async () => {
    const pkg = await notifiedPackage('DEV_UNSIGNED');
    const before = await historyOf(pkg.id);
    for (const [path, body] of DECIDING(pkg.id)) {
      for (const password of [undefined, '']) {
        // explicit: the release engineer passes every deciding route's role gate (a voter, the signer, the deliverer)
        const r = await post(path, u.release.token, { ...body, password });
        expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBe(400);
        expect(r.body.errorMessage).toBe(SIGNATURE_PASSWORD_REQUIRED);
      }
    }
    expect(await historyOf(pkg.id)).toEqual(before);
    expect((await packageOf(pkg.id, 'dev')).status).toBe('PENDING_APPROVAL');
  });
});

describe('a deciding call with a wrong password', () => {
  it('is a 403 (not 401) with a clear errorMessage; package and audit trail stay as they were', async () => {
    const pkg = await notifiedPackage('DEV_UNSIGNED');
    const [first, other] = approversFor(u, pkg.type);
    const before = await packageOf(pkg.id, 'dev');
    const trail = await historyOf(pkg.id);
    const approve = await post(`/packages/${pkg.id}/approve`, first!.token, { password: 'wrong-one' });
    expect(approve.status).toBe(403);
    expect(approve.body.errorMessage).toBe(SIGNATURE_PASSWORD_WRONG);
    const reject = await post(`/packages/${pkg.id}/reject`, other!.token, {
      'rejection-reason': 'no',
      password: 'wrong-one',
    });
    expect(reject.status).toBe(403);
    expect(reject.body.errorMessage).toBe(SIGNATURE_PASSWORD_WRONG);
    expect(await packageOf(pkg.id, 'dev')).toEqual(before);
    expect(await historyOf(pkg.id)).toEqual(trail);
    // the session is untouched: the same token decides with the right password
    const ok = await post(`/packages/${pkg.id}/approve`, first!.token, { password: SEED_PASSWORD });
    expect(ok.status).toBe(202);
  });

  it('counts as a failed sign-in: after five, signing and signing in are refused (429) as at login', async () => {
    const email = `${uniq('signer')}@example.com`;
    const password = 'Signer-Password-1';
    const who = await registerConfirmed({
      name: 'Sam Signer',
      email,
      password,
      userRole: 'TECHNICAL_LEADER',
    });
    await decideRoles([who.id]);
    const token = await login(email, password);
    const pkg = await notifiedPackage('DEV_UNSIGNED');
    const trail = await historyOf(pkg.id);
    for (let i = 0; i < 5; i++) {
      const r = await post(`/packages/${pkg.id}/approve`, token, { password: `guess-${i}` });
      expect(r.status, JSON.stringify(r.body)).toBe(403);
    }
    const locked = await post(`/packages/${pkg.id}/approve`, token, { password });
    expect(locked.status).toBe(429);
    expect(locked.body.errorMessage).toMatch(
      /^Too many failed sign-in attempts\. Try again in \d+ seconds\.$/,
    );
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    const signIn = await api('/user/login', { method: 'POST', body: { login: email, password } });
    expect(signIn.status).toBe(429);
    expect(await historyOf(pkg.id)).toEqual(trail);
  });
});

describe('a deciding call with the right password', () => {
  it('records name, role, UTC time and meaning in the audit trail and the XML; the verifier accepts it', async () => {
    const pkg = await notifiedPackage('RELEASE_SIGNED');
    const started = new Date().toISOString();
    await approveAllButLast(u, pkg);
    const last = await post(`/packages/${pkg.id}/approve`, lastApprover(u, pkg.type).token, {
      password: SEED_PASSWORD,
    });
    expect(last.status).toBe(200);
    const signed = await post(`/packages/${pkg.id}/generate-signed`, seededSigner(u).token, {
      password: SEED_PASSWORD,
    });
    expect(
      [signed.status, (signed.body as { outcome?: string }).outcome],
      JSON.stringify(signed.body),
    ).toEqual([202, 'GENERATING']);
    await waitForStatus(pkg, seededSigner(u).token, 'SIGNED');
    const n = approversFor(u, pkg.type).length;

    const events = await historyOf(pkg.id);
    const approvals = events.filter((e) => e.action === 'APPROVED');
    expect(approvals).toHaveLength(n);
    for (const e of [...approvals, events.find((x) => x.action === 'SIGNED')!]) {
      const s = e.details?.signature;
      expect(s).toMatchObject({
        printedName: e.actorName,
        role: e.actorRole,
        meaning: SIGNATURE_MEANINGS[e.action === 'SIGNED' ? 'sign' : 'approve'],
        authenticatedBy: 'password',
      });
      expect(s?.signedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(String(s?.signedAt) >= started).toBe(true);
    }
    const record = await packageOf(pkg.id, 'release');
    expect(record.approvers.map((a) => a.meaning)).toEqual(Array(n).fill(SIGNATURE_MEANINGS.approve));
    expect(record.resourceFile?.sha256).toMatch(/^[0-9a-f]{64}$/);

    const { file, dir } = await downloadXml(pkg.id, u.designDev.token);
    try {
      const xml = readFileSync(file, 'utf8');
      expect(xml.match(/<approval /g)).toHaveLength(n);
      expect(xml.split(`meaning="${SIGNATURE_MEANINGS.approve}"`)).toHaveLength(n + 1);
      expect(xml).toContain(`meaning="${SIGNATURE_MEANINGS.sign}"`);
      const approval = approvals.find((a) => a.actorName)!;
      expect(xml).toContain(`name="${approval.actorName}" email=`);
      expect(xml).toContain(`approvedAt="${approval.details!.signature!.signedAt}"`);
      const run = runVerifier(file, await portalKey(dir));
      expect(run.out).toContain(
        `PASS  Signature records: ${n + 1} signatures, each with name, role, UTC time and meaning`,
      );
      expect(run.out).toContain('VERDICT: VALID');
      expect(run.code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // delivery decisions come after the XML: the audit trail and the package record carry them
    const deliverer = seededDeliverer(u);
    // the delivery round's approvers (not its starter); the first in the policy's order rejects
    const delivery = approversFor(u, pkg.type, 'delivery').filter((a) => a.id !== deliverer.id);
    const deliveryApprovers = delivery.map(({ role, id }) => ({ role, id }));
    const rejecter = delivery[0]!;
    const deliver = await post(`/delivery/packages/${pkg.id}/notify-approvers`, deliverer.token, {
      approvers: deliveryApprovers,
      password: 'wrong-one',
    });
    expect(deliver.status).toBe(403);
    expect((await packageOf(pkg.id, 'release')).status).toBe('SIGNED');
    const delivered = await post(`/delivery/packages/${pkg.id}/notify-approvers`, deliverer.token, {
      approvers: deliveryApprovers,
      password: SEED_PASSWORD,
    });
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
    const rejected = await post(`/delivery/packages/${pkg.id}/reject`, rejecter.token, {
      'rejection-reason': 'not this week',
      password: SEED_PASSWORD,
    });
    expect(rejected.status).toBe(200);
    const after = await historyOf(pkg.id);
    expect(after.find((e) => e.action === 'DELIVERY_STARTED')?.details?.signature).toMatchObject({
      printedName: after.find((e) => e.action === 'DELIVERY_STARTED')?.actorName,
      role: APPROVAL_POLICY.deliverer.role,
      meaning: SIGNATURE_MEANINGS.deliver,
    });
    expect(after.find((e) => e.action === 'DELIVERY_REJECTED')?.details?.signature).toMatchObject({
      role: rejecter.role,
      meaning: SIGNATURE_MEANINGS.rejectDelivery,
    });
    const rejection = (await packageOf(pkg.id, 'release')).deliveryApprovers.find(
      (a) => a.user.id === rejecter.id,
    );
    expect(rejection?.meaning).toBe(SIGNATURE_MEANINGS.rejectDelivery);
  });
});
