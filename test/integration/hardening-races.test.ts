import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Package, PackageStatus } from '../../shared/api/contracts/packages';
import { type ChainedEvent, verifyChain } from '../../shared/domain/audit-chain';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { type ApiResult, api, jsonText } from '../support/api';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import { approversFor, approvesAnyTime, seededSigner } from '../support/package-flow';
import { dynamoAt, tableOf } from '../support/store';
import { noteWrittenAround } from '../support/written-around';

/**
 * Decisions that race on one package — approvals, a rejection and an admin deletion sent at once — end in
 * one of the states DESIGN §2 allows, with every answer a legal one for what happened (never a 5xx), the
 * stored package consistent with its own votes and tasks, and an unbroken audit trail that records
 * exactly the decisions that took effect.
 */
type Users = Awaited<ReturnType<typeof seededUsers>>;
let u: Users;
beforeAll(async () => {
  u = await seededUsers();
});

const ddb = () => dynamoAt(inject('dynamoEndpoint'));

/** The admin deletes a package in flight by signing it: password and reason. */
const signedDeletion = (id: string) => ({
  ids: [id],
  password: SEED_PASSWORD,
  reason: 'Raced: deleted mid-round',
});

interface StoredEvent extends ChainedEvent {
  [k: string]: unknown;
}

/** Every row stored under the package's key (the package itself and its tasks), straight from DynamoDB. */
async function packageRows(id: string) {
  const r = await ddb().send(
    new QueryCommand({
      TableName: tableOf('packages'),
      KeyConditionExpression: 'pk = :p',
      ExpressionAttributeValues: { ':p': `PKG#${id}` },
      ConsistentRead: true,
    }),
  );
  return (r.Items ?? []) as Record<string, unknown>[];
}

/** The package's audit events, read from the table (the history call answers 404 once it is deleted). */
async function auditEvents(id: string): Promise<StoredEvent[]> {
  const r = await ddb().send(
    new QueryCommand({
      TableName: tableOf('audit'),
      KeyConditionExpression: 'pk = :p AND seq > :head',
      ExpressionAttributeValues: { ':p': `PKG#${id}`, ':head': 0 },
      ConsistentRead: true,
    }),
  );
  return ((r.Items ?? []) as StoredEvent[]).map(({ pk: _pk, kind: _kind, ...e }) => e as StoredEvent);
}

/** Who approves a signed dev package: one user per role the policy asks for, in its order (the dev design engineer initiates). */
const approvers = () => approversFor(u, 'DEV_SIGNED');

/** A signed dev package waiting for the policy's approvers (signed: its last approval moves it on without a file). */
async function pendingPackage(): Promise<Package> {
  const resource = await uploadPatch(u.designDev.token, 'dev');
  const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_SIGNED');
  const dccId = await createDcc(u.designDev.token);
  expect(
    (await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token })).status,
  ).toBe(200);
  const n = await api(`/packages/${pkg.id}/notify-approvers`, {
    method: 'POST',
    token: u.designDev.token,
    body: { approvers: approvers().map(({ role, id }) => ({ role, id })), signer: seededSigner(u).id },
  });
  expect(n.status, JSON.stringify(n.body)).toBe(200);
  return pkg;
}

function expectNoServerError(label: string, r: ApiResult) {
  expect(r.status, `${label}: ${JSON.stringify(r.body)}`).toBeLessThan(500);
  if (r.status >= 400) expect(typeof r.body.errorMessage, label).toBe('string');
}

function expectTrail(events: StoredEvent[]) {
  expect(verifyChain(events), 'hash chain').toBeNull();
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  for (const e of events) {
    expect(e.actorId && e.actorName && e.actorRole && e.meaning && e.action, JSON.stringify(e)).toBeTruthy();
    expect(Number.isNaN(Date.parse(e.at)), e.at).toBe(false);
  }
}

const count = (events: StoredEvent[], action: string) => events.filter((e) => e.action === action).length;

describe('approve, reject and delete racing on one package', () => {
  // Each round is a fresh package; the rejection and the deletion start a little after the approvals in
  // some rounds, so that each of them sometimes wins and sometimes loses the race.
  const rounds: { rejectAfterMs: number; deleteAfterMs?: number }[] = [
    { rejectAfterMs: 0 },
    { rejectAfterMs: 0, deleteAfterMs: 0 },
    { rejectAfterMs: 60 },
    { rejectAfterMs: 60, deleteAfterMs: 30 },
    { rejectAfterMs: 200 },
    { rejectAfterMs: 150, deleteAfterMs: 150 },
    { rejectAfterMs: 400, deleteAfterMs: 250 },
  ];
  const later = <T>(ms: number, start: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => setTimeout(() => start().then(resolve, reject), ms));

  it.each(rounds.map((r, i) => [i + 1, r.rejectAfterMs, r.deleteAfterMs ?? 'no', r] as const))(
    'round %i (reject after %i ms, admin deletion after %s ms) ends in a legal state, answered and audited consistently',
    async (_, _reject, _delete, round) => {
      const withDelete = round.deleteAfterMs !== undefined;
      const pkg = await pendingPackage();
      const voters = approvers();
      // the first approver in the policy's order (who may approve at any time) both approves and rejects:
      // only one of the two may take effect
      const racer = voters[0]!;
      // approvals the policy lets go at any time are sent at once; any that waits for others (an order)
      // is sent once those were answered, still racing the rejection and the deletion
      const approve = (v: { token: string }) =>
        api(`/packages/${pkg.id}/approve`, { method: 'POST', token: v.token });
      const anyTime = voters.filter((v) => approvesAnyTime(v.role));
      const first = new Map(anyTime.map((v) => [v.id, approve(v)] as const));
      const answered = Promise.allSettled([...first.values()]);
      const calls: [string, Promise<ApiResult>][] = [
        ...voters.map(
          (v) =>
            [`approve ${v.role}`, first.get(v.id) ?? answered.then(() => approve(v))] as [
              string,
              Promise<ApiResult>,
            ],
        ),
        [
          'reject',
          later(round.rejectAfterMs, () =>
            api(`/packages/${pkg.id}/reject`, {
              method: 'POST',
              token: racer.token,
              body: { 'rejection-reason': 'Raced: the CRC region overlaps' },
            }),
          ),
        ],
        ...(withDelete
          ? [
              [
                'admin delete',
                later(round.deleteAfterMs ?? 0, () =>
                  api('/admin/packages', {
                    method: 'DELETE',
                    token: u.admin.token,
                    body: signedDeletion(pkg.id),
                  }),
                ),
              ] as [string, Promise<ApiResult>],
            ]
          : []),
      ];
      const answers = await Promise.all(calls.map(async ([label, p]) => [label, await p] as const));
      const by = Object.fromEntries(answers);
      for (const [label, r] of answers) expectNoServerError(label, r);

      for (const v of voters)
        expect([200, 202, 404, 409], `approve ${v.role}`).toContain(by[`approve ${v.role}`]!.status);
      expect([200, 404, 409]).toContain(by.reject!.status);

      const rows = await packageRows(pkg.id);
      const item = rows.find((r) => r.sk === 'PKG');
      const tasks = rows.filter((r) => String(r.sk).startsWith('TASK#'));
      const events = await auditEvents(pkg.id);
      expectTrail(events);
      // every event before the package's own creation steps is about this package's lifecycle
      expect(events.slice(0, 3).map((e) => e.action)).toEqual([
        'PACKAGE_CREATED',
        'DCC_ATTACHED',
        'APPROVAL_REQUESTED',
      ]);
      const approvedBy = events.filter((e) => e.action === 'APPROVED').map((e) => e.actorId);
      const rejectedBy = events.filter((e) => e.action === 'REJECTED').map((e) => e.actorId);
      // nobody's decision counts twice, and the racer's approval and rejection exclude each other
      expect(new Set(approvedBy).size).toBe(approvedBy.length);
      expect(rejectedBy.length).toBeLessThanOrEqual(1);
      expect(approvedBy.includes(racer.id) && rejectedBy.includes(racer.id)).toBe(false);

      if (withDelete) {
        expect(by['admin delete']!.status, JSON.stringify(by['admin delete']!.body)).toBe(200);
        // deleted means gone: no package, no task left pointing at it, one deletion event by the admin
        expect(rows, JSON.stringify(rows)).toEqual([]);
        expect(count(events, 'PACKAGE_DELETED')).toBe(1);
        expect(events.find((e) => e.action === 'PACKAGE_DELETED')?.actorId).toBe(u.admin.id);
        expect((await api(`/packages/${pkg.id}/history`, { token: u.lead.token })).status).toBe(404);
        for (const v of voters) {
          const waiting = jsonText<Package[]>(
            (await api<{ packages: string }>('/dev/packages/approval', { token: v.token })).body.packages,
          );
          expect(waiting.map((p) => p.id)).not.toContain(pkg.id);
        }
        const signing = jsonText<Package[]>(
          (await api<{ packages: string }>('/dev/packages/signing', { token: seededSigner(u).token })).body
            .packages,
        );
        expect(signing.map((p) => p.id)).not.toContain(pkg.id);
        return;
      }

      expect(item, 'package still stored').toBeTruthy();
      const status = item!.status as PackageStatus;
      const entries = Object.values(
        item!.approvers as Record<string, { user: { id: string }; approved: boolean; rejected: boolean }>,
      );
      const approvedIds = entries
        .filter((e) => e.approved)
        .map((e) => e.user.id)
        .sort();
      const rejectedIds = entries.filter((e) => e.rejected).map((e) => e.user.id);
      // the stored votes are exactly the audited ones
      expect([...approvedBy].sort()).toEqual(approvedIds);
      expect(rejectedBy).toEqual(rejectedIds);
      expect(item!.approvedCount).toBe(approvedIds.length);

      if (by.reject!.status === 200) {
        expect(status).toBe('REJECTED');
        expect(rejectedIds).toEqual([racer.id]);
        expect(approvedIds.length).toBeLessThan(voters.length);
        expect(count(events, 'FULLY_APPROVED')).toBe(0);
        expect(tasks, 'no task is left on a rejected package').toEqual([]);
      } else {
        expect(status).toBe('AWAITING_SIGNATURE');
        expect(approvedIds).toHaveLength(voters.length);
        expect(count(events, 'FULLY_APPROVED')).toBe(1);
        expect(
          voters.filter((v) => by[`approve ${v.role}`]!.body.outcome === 'WAITING_FOR_SIGNING'),
        ).toHaveLength(1);
        expect(tasks.map((t) => t.sk)).toEqual([`TASK#SIGN#${seededSigner(u).id}`]);
      }
      const h = await api<{ history: string; chainIntact: boolean }>(`/packages/${pkg.id}/history`, {
        token: u.lead.token,
      });
      expect(h.body.chainIntact).toBe(true);
      expect(jsonText<unknown[]>(h.body.history)).toHaveLength(events.length);
    },
    60_000,
  );

  it('the last approval racing repeated approvals of those who already voted moves the package on once', async () => {
    for (let round = 0; round < 2; round++) {
      const pkg = await pendingPackage();
      const all = approvers();
      const [earlier, last] = [all.slice(0, -1), all.at(-1)!];
      for (const v of earlier) {
        expect((await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: v.token })).status).toBe(
          202,
        );
      }
      // repeats spread over the time the last vote takes to move the package on
      const repeats = Array.from({ length: 12 }, (_, i) =>
        later(i * 15, () =>
          api(`/packages/${pkg.id}/approve`, {
            method: 'POST',
            token: earlier[i % earlier.length]!.token,
          }),
        ),
      );
      const [final, ...again] = await Promise.all([
        api(`/packages/${pkg.id}/approve`, { method: 'POST', token: last.token }),
        ...repeats,
      ]);
      expectNoServerError('last approval', final!);
      expect(final!.status).toBe(200);
      expect(final!.body.outcome).toBe('WAITING_FOR_SIGNING');
      for (const r of again) {
        expectNoServerError('repeated approval', r);
        // refused, or told where the package stands (a repeat landing while it moves on): never counted
        if (r.status === 200) expect(r.body.outcome).toBe('WAITING_FOR_SIGNING');
        else expect(r.status).toBe(409);
      }
      const rows = await packageRows(pkg.id);
      const item = rows.find((r) => r.sk === 'PKG')!;
      expect(item.status).toBe('AWAITING_SIGNATURE');
      expect(item.approvedCount).toBe(all.length);
      expect(rows.filter((r) => String(r.sk).startsWith('TASK#')).map((r) => r.sk)).toEqual([
        `TASK#SIGN#${seededSigner(u).id}`,
      ]);
      const events = await auditEvents(pkg.id);
      expectTrail(events);
      expect(count(events, 'APPROVED')).toBe(all.length);
      expect(count(events, 'FULLY_APPROVED')).toBe(1);
    }
  }, 90_000);

  it('a refusal to sign racing the admin deletion and a late approval ends rejected or deleted, never both', async () => {
    for (let round = 0; round < 2; round++) {
      const pkg = await pendingPackage();
      for (const v of approvers()) {
        expect([200, 202]).toContain(
          (await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: v.token })).status,
        );
      }
      const [refuse, del, late] = await Promise.all([
        api(`/packages/${pkg.id}/reject-signing`, {
          method: 'POST',
          token: seededSigner(u).token,
          body: { 'rejection-reason': 'Raced: not signing this one' },
        }),
        api('/admin/packages', { method: 'DELETE', token: u.admin.token, body: signedDeletion(pkg.id) }),
        api(`/packages/${pkg.id}/approve`, { method: 'POST', token: approvers()[0]!.token }),
      ]);
      expectNoServerError('reject signing', refuse);
      expectNoServerError('delete', del);
      expectNoServerError('late approve', late);
      expect([404, 409]).toContain(late.status);
      expect([200, 404, 409]).toContain(refuse.status);
      expect(del.status).toBe(200);
      expect(await packageRows(pkg.id)).toEqual([]);
      const events = await auditEvents(pkg.id);
      expectTrail(events);
      expect(count(events, 'SIGNING_REJECTED')).toBe(refuse.status === 200 ? 1 : 0);
      expect(count(events, 'PACKAGE_DELETED')).toBe(1);
      expect(count(events, 'APPROVED')).toBe(approvers().length);
    }
  }, 90_000);
});

describe('audit trail of a scripted run', () => {
  it('records exactly one event per operation that took effect, none for refused ones, each with actor, role, time and meaning', async () => {
    const started = new Date(Date.now() - 1000).toISOString();
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_SIGNED');
    // who takes each step, with the role they act in: the initiator, and the policy's approvers in its order
    type Actor = { id: string; token: string; role: string };
    const dev: Actor = { ...u.designDev, role: 'DESIGN_ENGINEER_DEV' };
    const voters: Actor[] = approvers();
    const [first, last] = [voters[0]!, voters.at(-1)!];
    const script: { who: Actor; action: string }[] = [];
    const dccId = await createDcc(u.designDev.token);
    // a real edit: a save of the unchanged header records nothing
    const stored = jsonText<{ fields: { name: string; value: unknown }[] }>(
      (await api<{ header: string }>(`/packages/${pkg.id}/header`, { token: u.designDev.token })).body.header,
    );
    for (const f of stored.fields) if (f.name === 'Package Id') f.value = 4711;
    const header = JSON.stringify(stored);
    const ok = async (
      who: Actor,
      action: string,
      run: () => Promise<ApiResult>,
      expected: number[] = [200, 202],
    ) => {
      const r = await run();
      expect(expected, `${action}: ${r.status} ${JSON.stringify(r.body)}`).toContain(r.status);
      script.push({ who, action });
    };
    const refused = async (run: () => Promise<ApiResult>, status: number) => {
      const r = await run();
      expect(r.status, JSON.stringify(r.body)).toBe(status);
    };
    const post = (path: string, who: { token: string }, body?: unknown) => () =>
      api(path, { method: 'POST', token: who.token, body });

    script.push({ who: dev, action: 'PACKAGE_CREATED' });
    await ok(dev, 'HEADER_EDITED', () =>
      api(`/packages/${pkg.id}/header`, { method: 'PATCH', token: u.designDev.token, body: { header } }),
    );
    await refused(
      () => api(`/packages/${pkg.id}/header`, { method: 'PATCH', token: u.lead.token, body: { header } }),
      403,
    );
    await ok(dev, 'DCC_ATTACHED', post(`/packages/${pkg.id}/dcc/${dccId}`, dev));
    // not assigned yet: approvers are chosen at notify
    await refused(post(`/packages/${pkg.id}/approve`, first), 403);
    await ok(
      dev,
      'APPROVAL_REQUESTED',
      post(`/packages/${pkg.id}/notify-approvers`, dev, {
        approvers: voters.map(({ role, id }) => ({ role, id })),
        signer: seededSigner(u).id,
      }),
    );
    await refused(post(`/packages/${pkg.id}/notify-approvers`, dev, { approvers: [] }), 400);
    await ok(first, 'APPROVED', post(`/packages/${pkg.id}/approve`, first));
    await refused(post(`/packages/${pkg.id}/approve`, first), 409);
    await refused(post(`/packages/${pkg.id}/approve`, dev), 403);
    for (const v of voters.slice(1, -1)) {
      await ok(v, 'APPROVED', post(`/packages/${pkg.id}/approve`, v));
      await refused(post(`/packages/${pkg.id}/reject`, v, { 'rejection-reason': 'changed my mind' }), 409);
    }
    await ok(
      last,
      'REJECTED',
      post(`/packages/${pkg.id}/reject`, last, { 'rejection-reason': 'Wrong signer chosen' }),
    );
    await refused(
      post(`/packages/${pkg.id}/reject-signing`, seededSigner(u), { 'rejection-reason': 'too late' }),
      409,
    );

    const h = await api<{ history: string; chainIntact: boolean }>(`/packages/${pkg.id}/history`, {
      token: u.lead.token,
    });
    expect(h.body.chainIntact).toBe(true);
    const events = jsonText<StoredEvent[]>(h.body.history);
    expect(events.map((e) => e.action)).toEqual(script.map((s) => s.action));
    expect(events.map((e) => e.actorId)).toEqual(script.map((s) => s.who.id));
    expect(events.map((e) => e.actorRole)).toEqual(script.map((s) => s.who.role));
    expectTrail(events);
    const times = events.map((e) => e.at);
    expect([...times].sort()).toEqual(times);
    expect(times[0]! >= started && times.at(-1)! <= new Date(Date.now() + 1000).toISOString()).toBe(true);
    for (const e of events) expect(String(e.meaning).length, e.action).toBeGreaterThan(10);
  }, 90_000);

  it('notices a stored event removed from the end of the trail, not only one altered', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    const dccId = await createDcc(u.designDev.token);
    await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token });
    const before = await api<{ history: string; chainIntact: boolean }>(`/packages/${pkg.id}/history`, {
      token: u.lead.token,
    });
    expect(before.body.chainIntact).toBe(true);
    expect(jsonText<unknown[]>(before.body.history)).toHaveLength(2);
    const { DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    await ddb().send(
      new DeleteCommand({ TableName: tableOf('audit'), Key: { pk: `PKG#${pkg.id}`, seq: 2 } }),
    );
    noteWrittenAround(inject('dataDir'), [`PKG#${pkg.id}`], 'the last event of its record removed by hand');
    const after = await api<{ chainIntact: boolean; brokenAtSeq: number }>(`/packages/${pkg.id}/history`, {
      token: u.lead.token,
    });
    expect(after.body.chainIntact).toBe(false);
    expect(after.body.brokenAtSeq).toBe(2);
  });
});
