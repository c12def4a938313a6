import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { api, jsonText, localDynamo, localTable } from '../support/api';
import { type DirectUser, directUsers } from '../support/direct-users';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import { chosenApprovers, seededSigner } from '../support/package-flow';
import { noteWrittenAround } from '../support/written-around';

/**
 * 50 voters on one package (a real one has one per role, at most six): the same race as 100, sized so
 * the local stack answers within API Gateway's 28 s on a busy 2-core machine (decision 282).
 */
const APPROVERS = 50;
/** approvers who vote twice at once: exactly one of each pair may count */
const DUPLICATES = 10;

describe('concurrent approvals', () => {
  let approvers: DirectUser[];
  let u: Awaited<ReturnType<typeof seededUsers>>;
  beforeAll(async () => {
    u = await seededUsers();
    // created straight in the table with signed tokens: the vote path under test is the API's
    approvers = await directUsers(APPROVERS, 'TECHNICAL_LEADER');
  }, 120_000);

  it(`counts ${APPROVERS} approvals plus ${DUPLICATES} duplicate votes arriving at once: each approval exactly once, one transition`, async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_SIGNED');
    const dccId = await createDcc(u.designDev.token);
    await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token });
    const notified = await api(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: {
        approvers: chosenApprovers(u, 'DEV_SIGNED'),
        signer: seededSigner(u).id,
      },
    });
    expect(notified.status).toBe(200);

    // The API assigns one approver per role; to load one package with that many voters the test widens the
    // stored approver map directly (the vote path under test is the API's).
    // Explicit on purpose: a hand-built map of one role (a load test of the vote path, not of the policy).
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
    noteWrittenAround(
      inject('dataDir'),
      [`PKG#${pkg.id}`],
      'its approvers widened by hand to load the vote path',
    );

    const votes = [...approvers, ...approvers.slice(0, DUPLICATES)].map((a) =>
      api(`/packages/${pkg.id}/approve`, { method: 'POST', token: a.token }),
    );
    const results = await Promise.all(votes);
    const byStatus = (s: number) => results.filter((r) => r.status === s).length;
    expect(
      results.filter((r) => r.status >= 500),
      JSON.stringify(results.filter((r) => r.status >= 500).map((r) => r.body)),
    ).toHaveLength(0);
    // every approver's first vote counts: all but one wait for the others, the last one moves the package on
    expect(byStatus(202)).toBe(APPROVERS - 1);
    const ready = results.filter((r) => r.status === 200 && r.body.outcome === 'WAITING_FOR_SIGNING');
    expect(ready.length).toBeGreaterThanOrEqual(1);
    // The duplicate votes are refused (409), whichever of the pair arrived second. A duplicate that lands
    // while the last vote is moving the package on may instead be told where it stands (200, waiting for
    // signing, as an approver's retry is), but it is never counted: see the stored counts and events below.
    expect(byStatus(409) + ready.length - 1).toBe(DUPLICATES);
    for (let i = 0; i < DUPLICATES; i++) {
      const pair = [results[i]!, results[APPROVERS + i]!];
      expect(pair.filter((r) => r.status === 202 || r.status === 200)).not.toHaveLength(0);
      expect(pair.filter((r) => r.status === 409 || r.status === 200)).not.toHaveLength(0);
    }

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
    noteWrittenAround(inject('dataDir'), [`PKG#${pkg.id}`], 'an event of its record altered by hand');
    const after = await api<{ chainIntact: boolean; brokenAtSeq: number }>(`/packages/${pkg.id}/history`, {
      token: u.lead.token,
    });
    expect(after.body.chainIntact).toBe(false);
    expect(after.body.brokenAtSeq).toBe(1);
  });
});
