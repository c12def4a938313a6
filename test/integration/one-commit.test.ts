import { randomBytes } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { StoredAuditEvent } from '../../lambdas/ports/audit-log';
import type { Package } from '../../shared/api/contracts/packages';
import type { AccessTokenView } from '../../shared/domain/access-tokens';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { api, apiAt, jsonText, SEEDED, uniq } from '../support/api';
import { directUsers } from '../support/direct-users';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import {
  approveAllButLast,
  approversFor,
  lastApprover,
  prepareAndNotify,
  seededApproverKeys,
} from '../support/package-flow';
import { type StackProcess, startStackProcess } from '../support/stack-process';
import { dynamoAt, tableOf } from '../support/store';

/**
 * Decision 283 over HTTP: each write and its audit event(s) commit in one transaction. After each kind of
 * write the subject's history holds its event exactly once, in order, on an intact chain; a refused write
 * (a duplicate, a lost race, a wrong caller) records nothing. Read straight from the audit table, so users,
 * tokens, resources and DCCs (which have no history route) are checked the same way as packages.
 */
type Users = Awaited<ReturnType<typeof seededUsers>>;
let u: Users;
beforeAll(async () => {
  u = await seededUsers();
}, 120_000);

/** The events of `subject` in order, as stored (the head, seq 0, left out). */
async function events(subject: string, endpoint = inject('dynamoEndpoint')): Promise<StoredAuditEvent[]> {
  const r = await dynamoAt(endpoint).send(
    new QueryCommand({
      TableName: tableOf('audit'),
      KeyConditionExpression: 'pk = :s AND seq > :head',
      ExpressionAttributeValues: { ':s': subject, ':head': 0 },
      ConsistentRead: true,
    }),
  );
  return (r.Items ?? []) as StoredAuditEvent[];
}
const actions = async (subject: string) => (await events(subject)).map((e) => e.action);

describe('each decision and its event commit together', () => {
  it('records every vote once with its exact count, the last one with its transition; refused votes record nothing', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_SIGNED');
    await prepareAndNotify(u, pkg);
    const approvers = approversFor(u, pkg.type);
    const before = (await events(`PKG#${pkg.id}`)).length;
    // not an approver (403) and nothing recorded
    expect((await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: u.admin.token })).status).toBe(
      403,
    );
    await approveAllButLast(u, pkg);
    // a second vote of the same approver: 409, nothing recorded
    const first = approvers[0]!;
    expect((await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: first.token })).status).toBe(
      409,
    );
    const last = await api(`/packages/${pkg.id}/approve`, {
      method: 'POST',
      token: lastApprover(u, pkg.type).token,
    });
    expect([last.status, last.body.outcome]).toEqual([200, 'WAITING_FOR_SIGNING']);

    const all = await events(`PKG#${pkg.id}`);
    const added = all.slice(before);
    expect(added.map((e) => e.action)).toEqual([...approvers.map(() => 'APPROVED'), 'FULLY_APPROVED']);
    expect(added.filter((e) => e.action === 'APPROVED').map((e) => [e.actorId, e.details?.approved])).toEqual(
      approvers.map((a, i) => [a.id, `${i + 1}/${approvers.length}`]),
    );
    // the last vote and the transition: one commit (one time), consecutive
    const [vote, full] = added.slice(-2);
    expect([full!.seq - vote!.seq, full!.at, full!.details?.status]).toEqual([
      1,
      vote!.at,
      'AWAITING_SIGNATURE',
    ]);
    const h = await api<{ chainIntact: boolean }>(`/packages/${pkg.id}/history`, { token: u.lead.token });
    expect(h.body.chainIntact).toBe(true);
  });

  it('records a rejection once, with the tasks gone; a second rejection records nothing', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    await prepareAndNotify(u, pkg);
    const [a, b] = approversFor(u, pkg.type);
    const reject = (token: string) =>
      api(`/packages/${pkg.id}/reject`, {
        method: 'POST',
        token,
        body: { 'rejection-reason': 'Wrong header' },
      });
    expect((await reject(a!.token)).status).toBe(200);
    expect((await reject(b!.token)).status).toBe(409);
    expect((await actions(`PKG#${pkg.id}`)).filter((x) => x === 'REJECTED')).toHaveLength(1);
    const waiting = jsonText<Package[]>(
      (await api<{ packages: string }>('/dev/packages/approval', { token: b!.token })).body.packages,
    );
    expect(waiting.map((p) => p.id)).not.toContain(pkg.id);
  });

  it('records account changes, token creations and revocations once; refused ones record nothing', async () => {
    // a user of this test only: its name changes below
    const [me] = await directUsers(1, 'RELIABILITY_ENGINEER', 'Commit Tester');
    if (!me) throw new Error('no user made');
    const subject = `USER#${me.id}`;
    const before = (await actions(subject)).length;
    // a wrong old password changes nothing and records nothing
    const wrong = await api('/user/password', {
      method: 'POST',
      token: me.token,
      body: { oldPassword: 'not-the-password-1', newPassword: 'Another-Password-9' },
    });
    expect(wrong.status).toBe(403);
    const made = await api<{ accessToken: AccessTokenView }>('/access-tokens', {
      method: 'POST',
      token: me.token,
      body: { name: uniq('commit'), expiresInDays: 5, scopes: ['packages:draft'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.accessToken.id;
    for (let i = 0; i < 2; i++)
      expect((await api(`/access-tokens/${id}`, { method: 'DELETE', token: me.token })).status).toBe(200);
    expect((await actions(subject)).slice(before)).toEqual(['ACCESS_TOKEN_CREATED', 'ACCESS_TOKEN_REVOKED']);
    const account = await api('/user/account', {
      method: 'POST',
      token: me.token,
      body: { name: 'Commit Tester Renamed', email: me.email, userRole: 'RELIABILITY_ENGINEER' },
    });
    expect(account.status, JSON.stringify(account.body)).toBe(200);
    expect((await actions(subject)).slice(before).at(-1)).toBe('ACCOUNT_UPDATED');
  });

  it('records a resource upload and a DCC once; a name taken and a deletion of nothing record nothing', async () => {
    const name = uniq('commit-patch');
    const resource = await uploadPatch(u.designDev.token, 'dev', 1024, name);
    await expect(uploadPatch(u.designDev.token, 'dev', 1024, name)).rejects.toThrow(/409/);
    expect(await actions(`RES#${resource.id}`)).toEqual(['RESOURCE_UPLOADED']);
    const dccId = await createDcc(u.designDev.token);
    const del = () => api('/admin/dcc', { method: 'DELETE', token: u.admin.token, body: [dccId] });
    expect((await del()).status).toBe(200);
    expect((await del()).status).toBe(404);
    expect(await actions(`DCC#${dccId}`)).toEqual(['DCC_CREATED', 'DCC_DELETED']);
  });
});

/**
 * The decider's retry while the generation is committed but no worker took it yet (decision 284): on a
 * stack whose worker starts a few seconds after the hand-over (LOCAL_GENERATION_START_DELAY_MS), the last
 * approver sends the approval again at once. It answers 202 GENERATING and hands the job over again; the
 * run that claims the job first generates the package, the other stands down: one PACKAGE_GENERATED.
 */
describe('a deciding call retried before its generation ran', () => {
  let stack: StackProcess;
  beforeAll(async () => {
    stack = await startStackProcess({ LOCAL_GENERATION_START_DELAY_MS: '4000' });
  }, 240_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('hands the job over again and the package is generated once', async () => {
    const call = <T = Record<string, unknown>>(path: string, opts: Parameters<typeof apiAt>[2] = {}) =>
      apiAt<T>(stack.url, path, opts);
    const signIn = async (email: string) => {
      const r = await call<{ token: string; user: string }>('/user/login', {
        method: 'POST',
        body: { login: email, password: SEED_PASSWORD },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return { token: r.body.token, id: jsonText<{ id: string }>(r.body.user).id };
    };
    const dev = await signIn(SEEDED.designDev);
    const form = new FormData();
    form.append('resourceFile', new Blob([new Uint8Array(randomBytes(2048))]), 'retry.bin');
    const up = await call<{ resource: string }>('/resources/patch/dev?name=retry-patch', {
      method: 'POST',
      token: dev.token,
      body: form,
    });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const made = await call<{ package: string }>(
      `/resources/${jsonText<{ id: string }>(up.body.resource).id}/generate-package`,
      {
        method: 'POST',
        token: dev.token,
        body: { packageName: 'retry-package', packageType: 'DEV_UNSIGNED', note: 'A retried decision' },
      },
    );
    const pkg = jsonText<Package>(made.body.package);
    const dcc = await call<{ dccUuid: string }>('/dcc', {
      method: 'POST',
      token: dev.token,
      body: { deviceId: 'RETRY-1', telemetryType: 'TelB', messageLimit: 64, deviceLimit: 4096 },
    });
    expect(
      (await call(`/packages/${pkg.id}/dcc/${dcc.body.dccUuid}`, { method: 'POST', token: dev.token }))
        .status,
    ).toBe(200);
    // the policy's approvers, in its order, signed in on this stack
    const approvers = [];
    for (const { role, key } of seededApproverKeys(pkg.type))
      approvers.push({ role, ...(await signIn(SEEDED[key])) });
    const notified = await call(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: dev.token,
      body: { approvers: approvers.map((a) => ({ role: a.role, id: a.id })) },
    });
    expect(notified.status, JSON.stringify(notified.body)).toBe(200);
    for (const a of approvers.slice(0, -1))
      expect((await call(`/packages/${pkg.id}/approve`, { method: 'POST', token: a.token })).status).toBe(
        202,
      );
    const decider = approvers.at(-1)!;
    const approve = () => call(`/packages/${pkg.id}/approve`, { method: 'POST', token: decider.token });
    expect((await approve()).status).toBe(202);
    // the client's retry (as after a 5xx): the worker has not taken the job yet, so it is handed over again
    const retry = await approve();
    expect([retry.status, retry.body.outcome], JSON.stringify(retry.body)).toEqual([202, 'GENERATING']);
    await expect
      .poll(
        async () =>
          jsonText<Package>(
            (await call<{ package: string }>(`/packages/${pkg.id}/details`, { token: dev.token })).body
              .package,
          ).status,
        {
          timeout: 120_000,
          interval: 500,
        },
      )
      .toBe('APPROVED');
    const trail = (await events(`PKG#${pkg.id}`, stack.dynamoEndpoint)).map((e) => e.action);
    expect(trail.filter((x) => x === 'PACKAGE_GENERATED')).toHaveLength(1);
    expect(trail.filter((x) => x === 'APPROVED')).toHaveLength(approvers.length);
    expect(trail.filter((x) => x === 'FULLY_APPROVED')).toHaveLength(1);
    // once a run generated it, a further retry is told the decision is taken
    expect((await approve()).status).toBe(409);
  }, 240_000);
});
