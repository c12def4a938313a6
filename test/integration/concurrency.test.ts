import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { api, jsonText, localDynamo, localTable, login, uniq } from '../support/api';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';

const APPROVERS = 50;

interface Approver {
  id: string;
  token: string;
  name: string;
  email: string;
}

/** Registers `n` technical leaders and signs them in, a few at a time (scrypt is deliberately slow). */
async function registerApprovers(n: number): Promise<Approver[]> {
  const out: Approver[] = [];
  for (let i = 0; i < n; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, n - i) }, async () => {
        const email = `${uniq('voter')}@example.com`;
        const password = 'Concurrent-Vote-1';
        const r = await api<{ user: string }>('/user/register', {
          method: 'POST',
          body: { name: 'Voter', email, password, userRole: 'TECHNICAL_LEADER' },
        });
        const id = jsonText<{ id: string }>(r.body.user).id;
        return { id, email, name: 'Voter', token: await login(email, password) };
      }),
    );
    out.push(...batch);
  }
  return out;
}

describe('concurrent approvals', () => {
  let approvers: Approver[];
  let u: Awaited<ReturnType<typeof seededUsers>>;
  beforeAll(async () => {
    u = await seededUsers();
    approvers = await registerApprovers(APPROVERS);
  }, 240_000);

  it(`counts ${APPROVERS} approvals arriving at once, each exactly once, and moves the package on once`, async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_SIGNED');
    const dccId = await createDcc(u.designDev.token);
    await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token });
    const notified = await api(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: {
        approvers: [
          { role: 'DESIGN_ENGINEER_TEST', id: u.designTest.id },
          { role: 'TECHNICAL_LEADER', id: u.lead.id },
          { role: 'RELIABILITY_ENGINEER', id: u.reliability.id },
          { role: 'SW_FW_RELEASE_ENGINEER', id: u.release.id },
        ],
        signer: u.release.id,
      },
    });
    expect(notified.status).toBe(200);

    // The API assigns one approver per role; to load one package with 50 voters the test widens the
    // stored approver map directly (the vote path under test is the API's).
    const ddb = await localDynamo();
    const map = Object.fromEntries(
      approvers.map((a) => [
        a.id,
        {
          user: { id: a.id, name: a.name, email: a.email, userRole: 'TECHNICAL_LEADER' },
          role: 'TECHNICAL_LEADER',
          approved: false,
          rejected: false,
        },
      ]),
    );
    await ddb.send(
      new UpdateCommand({
        TableName: localTable('packages'),
        Key: { pk: `PKG#${pkg.id}`, sk: 'PKG' },
        UpdateExpression: 'SET approvers = :m, approverCount = :n',
        ExpressionAttributeValues: { ':m': map, ':n': APPROVERS },
      }),
    );

    const votes = [...approvers, ...approvers.slice(0, 10)].map((a) =>
      api(`/packages/${pkg.id}/approve`, { method: 'POST', token: a.token }),
    );
    const results = await Promise.all(votes);
    const byStatus = (s: number) => results.filter((r) => r.status === s).length;
    expect(
      results.filter((r) => r.status >= 500),
      JSON.stringify(results.filter((r) => r.status >= 500).map((r) => r.body)),
    ).toHaveLength(0);
    expect(byStatus(202)).toBe(APPROVERS - 1);
    expect(results.filter((r) => r.status === 200 && r.body.outcome === 'WAITING_FOR_SIGNING')).toHaveLength(
      1,
    );
    // the ten duplicate votes are refused, whichever of the pair arrived second
    expect(byStatus(409)).toBe(10);

    const stored = await ddb.send(
      new GetCommand({ TableName: localTable('packages'), Key: { pk: `PKG#${pkg.id}`, sk: 'PKG' } }),
    );
    expect(stored.Item?.approvedCount).toBe(APPROVERS);
    expect(stored.Item?.status).toBe('AWAITING_SIGNATURE');

    const h = await api<{ history: string; chainIntact: boolean }>(`/packages/${pkg.id}/history`, {
      token: u.lead.token,
    });
    const events = jsonText<{ action: string; seq: number }[]>(h.body.history);
    expect(events.filter((e) => e.action === 'APPROVED')).toHaveLength(APPROVERS);
    expect(events.filter((e) => e.action === 'FULLY_APPROVED')).toHaveLength(1);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(h.body.chainIntact).toBe(true);
    const signing = jsonText<Package[]>(
      (await api<{ packages: string }>('/dev/packages/signing', { token: u.release.token })).body.packages,
    );
    expect(signing.map((p) => p.id)).toContain(pkg.id);
  });

  it('detects an audit event altered in the database', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    const dccId = await createDcc(u.designDev.token);
    await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token });
    const before = await api<{ chainIntact: boolean }>(`/packages/${pkg.id}/history`, {
      token: u.lead.token,
    });
    expect(before.body.chainIntact).toBe(true);
    const ddb = await localDynamo();
    await ddb.send(
      new UpdateCommand({
        TableName: localTable('audit'),
        Key: { pk: `PKG#${pkg.id}`, seq: 1 },
        UpdateExpression: 'SET actorName = :n',
        ExpressionAttributeValues: { ':n': 'Someone Else' },
      }),
    );
    const after = await api<{ chainIntact: boolean; brokenAtSeq: number }>(`/packages/${pkg.id}/history`, {
      token: u.lead.token,
    });
    expect(after.body.chainIntact).toBe(false);
    expect(after.body.brokenAtSeq).toBe(1);
  });
});
