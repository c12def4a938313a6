import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { ROUTES } from '../../shared/api/routes';
import { ACCESS_TOKEN_ERR, type AccessTokenView } from '../../shared/domain/access-tokens';
import { api, baseUrl, jsonText, mails, uniq } from '../support/api';
import { type DirectUser, directUsers } from '../support/direct-users';
import { createDcc, seededUser } from '../support/fixtures';
import { decideRoles, grantRoles } from '../support/identity';
import { errorMessageOf, rawRequest } from '../support/raw-http';
import { dynamoAt, scanAll, tableOf } from '../support/store';
import { settled } from '../support/uploads';

/**
 * access tokens for pipelines, over HTTP against the local stack. A token uploads and drafts
 * within its scopes, is refused (403, a person must sign) by every other row of the route table, and ends
 * at once with its revocation, its expiry, its owner's deletion, role change or refusal. The CLI
 * (scripts/pipeline.ts) runs the whole pipeline step with a 20 MiB file.
 */

type Err = { errorMessage?: string };
const HEADER_FILE = join(process.cwd(), 'docs/examples/header.json');
const ddb = () => dynamoAt(inject('dynamoEndpoint'));

async function makeToken(owner: string, body: Record<string, unknown>) {
  return api<{ token: string; accessToken: AccessTokenView } & Err>('/access-tokens', {
    method: 'POST',
    token: owner,
    body: { name: uniq('ci'), expiresInDays: 30, scopes: ['resources:upload', 'packages:draft'], ...body },
  });
}

async function newToken(owner: string, body: Record<string, unknown> = {}) {
  const r = await makeToken(owner, body);
  if (r.status !== 201) throw new Error(`token: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A small patch uploaded with the token through the presigned upload; answers the resource id. */
async function uploadWith(token: string, size = 4096): Promise<string> {
  const name = uniq('tok-patch');
  const ticket = await api<{ uploadId: string; resourceUrl: string } & Err>('/resources/uploads', {
    method: 'POST',
    token,
    body: { name, resourceType: 'PATCH', resourceStage: 'DEV', fileName: `${name}.bin`, sizeBytes: size },
  });
  expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);
  const put = await fetch(ticket.body.resourceUrl, { method: 'PUT', body: new Uint8Array(size).fill(7) });
  await put.arrayBuffer();
  const confirmed = await api(`/resources/uploads/${ticket.body.uploadId}/confirm`, {
    method: 'POST',
    token,
  });
  const done = await settled(token, confirmed);
  expect(done.state, done.errorMessage).toBe('REGISTERED');
  return jsonText<{ id: string }>(done.resource).id;
}

const header = async () => JSON.parse(await (await import('node:fs/promises')).readFile(HEADER_FILE, 'utf8'));

let owner: DirectUser;
let admin: string;
/** every account this file makes: the stack is shared, and granted extra people would join later approver lists */
const made: string[] = [];
const accounts = async (...args: Parameters<typeof directUsers>) => {
  const users = await directUsers(...args);
  made.push(...users.map((u) => u.id));
  return users;
};

beforeAll(async () => {
  [owner] = (await accounts(1, 'DESIGN_ENGINEER_DEV', 'Pipeline Owner')) as [DirectUser];
  admin = (await seededUser('admin')).token;
}, 120_000);

afterAll(async () => {
  const del = await api('/admin/users', { method: 'DELETE', token: admin, body: made });
  expect(del.status, JSON.stringify(del.body)).toBe(200);
});

describe('making a token', () => {
  it('shows the secret once, keeps only its SHA-256 and lists it without the secret', async () => {
    const made = await newToken(owner.token, { name: 'nightly build' });
    expect(made.token).toMatch(/^frp_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(made.accessToken).toMatchObject({
      name: 'nightly build',
      state: 'ACTIVE',
      owner: { id: owner.id },
    });
    const days =
      (Date.parse(made.accessToken.expiresAt) - Date.parse(made.accessToken.createdAt)) / 86_400_000;
    expect(days).toBe(30);
    const stored = await ddb().send(
      new GetCommand({ TableName: tableOf('users'), Key: { pk: `ACCESSTOKEN#${made.accessToken.id}` } }),
    );
    expect(stored.Item?.secretHash).toBe(createHash('sha256').update(made.token).digest('hex'));
    const everything = JSON.stringify(await scanAll(ddb(), tableOf('users')));
    expect(everything).not.toContain(made.token.slice(22));
    const list = await api<{ accessTokens: AccessTokenView[] }>('/access-tokens', { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.accessTokens.map((t) => t.id)).toContain(made.accessToken.id);
    expect(JSON.stringify(list.body)).not.toContain(made.token.slice(22));
  });

  it('refuses an expiry over 90 days, an unknown scope, no scope and no name, naming the field', async () => {
    for (const [body, field] of [
      [{ expiresInDays: 91 }, 'expiresInDays'],
      [{ expiresInDays: 0 }, 'expiresInDays'],
      [{ scopes: ['packages:approve'] }, 'scopes'],
      [{ scopes: [] }, 'scopes'],
      [{ name: '   ' }, 'name'],
    ] as const) {
      const r = await makeToken(owner.token, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errorMessage).toContain(field);
    }
  });

  it('is for granted people only: an admin holds no scope, a reviewer cannot upload', async () => {
    expect((await makeToken(admin, {})).status).toBe(403);
    const [lead] = (await accounts(1, 'TECHNICAL_LEADER', 'Lead')) as [DirectUser];
    const r = await makeToken(lead.token, { scopes: ['resources:upload'] });
    expect(r.status).toBe(400);
    expect(r.body.errorMessage).toContain('resources:upload');
    expect((await makeToken(lead.token, { scopes: ['packages:draft'] })).status).toBe(201);
  });
});

describe('a token within its scopes', () => {
  it('uploads and drafts a package with its header as code and a DCC; the audit trail names the token', async () => {
    const { token, accessToken } = await newToken(owner.token, { name: 'pump CI' });
    const resourceId = await uploadWith(token);
    const created = await api<{ package: string } & Err>(`/resources/${resourceId}/generate-package`, {
      method: 'POST',
      token,
      body: {
        packageName: uniq('pipeline'),
        packageType: 'DEV_UNSIGNED',
        note: 'CI build 812',
        header: await header(),
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const pkg = jsonText<Package>(created.body.package);
    expect(pkg.initiator.id).toBe(owner.id);
    const dccId = await createDcc(owner.token);
    const attached = await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token });
    expect(attached.status, JSON.stringify(attached.body)).toBe(200);
    const h = await api<{ header: string }>(`/packages/${pkg.id}/header`, { token });
    expect(h.status).toBe(200);
    const fields = jsonText<{ fields: { name: string; value: unknown }[] }>(h.body.header).fields;
    const value = (name: string) => fields.find((f) => f.name === name)?.value;
    expect(value('Package Id')).toBe(42);
    expect(value('Device Model Id')).toEqual({ 'Model Id': 7, 'Sub Model Id': 2, 'Serial Number': 123456 });
    expect(value('Update Operation Type')).toBe(1);
    expect(value('Patch Criteria Items')).toEqual([
      { Address: 0x08000400, Mask: 0xffff0000, Value: 0x01040000, Operator: 5 },
    ]);
    const history = await api<{ history: string }>(`/packages/${pkg.id}/history`, { token: owner.token });
    const events = jsonText<{ action: string; actorName: string }[]>(history.body.history);
    for (const action of ['PACKAGE_CREATED', 'DCC_ATTACHED'])
      expect(events.find((e) => e.action === action)?.actorName).toBe(
        "Pipeline Owner (access token 'pump CI')",
      );
    const listed = await api<{ accessTokens: AccessTokenView[] }>('/access-tokens', { token: owner.token });
    expect(listed.body.accessTokens.find((t) => t.id === accessToken.id)?.lastUsedAt).toBeDefined();
  });

  it('refuses a bad header naming every field, and creates nothing', async () => {
    const { token } = await newToken(owner.token);
    const resourceId = await uploadWith(token);
    const name = uniq('badheader');
    const r = await api<Err & { headerErrors?: { field: string }[] }>(
      `/resources/${resourceId}/generate-package`,
      {
        method: 'POST',
        token,
        body: {
          packageName: name,
          packageType: 'DEV_UNSIGNED',
          note: 'n',
          header: {
            fields: [
              { name: 'Package Id', value: '0x1FFFFFFFF' },
              { name: 'Update Operation Type', value: 'EXPLODE' },
              { name: 'Patch Criteria Items', value: [{ Address: 1, Mask: 2, Value: 3 }] },
              { name: 'No Such Field', value: 1 },
            ],
          },
        },
      },
    );
    expect(r.status).toBe(400);
    expect(r.body.headerErrors?.map((e) => e.field)).toEqual([
      'Package Id',
      'Update Operation Type',
      'Patch Criteria Items[0].Operator',
      'No Such Field',
    ]);
    const list = await api<{ packages: string }>('/dev/packages', { token: owner.token });
    expect(list.body.packages).not.toContain(name);
  });

  it('is refused by every row it has no scope for: decisions, notifications, users, admin (a person must sign)', async () => {
    const { token } = await newToken(owner.token);
    const closed = ROUTES.filter((r) => r.access !== 'public' && !('tokenScope' in r));
    expect(closed.map((r) => r.id)).toEqual(
      expect.arrayContaining([
        'approvePackage',
        'rejectPackage',
        'signPackage',
        'notifyApprovers',
        'approveDelivery',
        'rejectDelivery',
        'notifyDeliveryApprovers',
        'rejectSigning',
        'retryGeneration',
        'downloadPackage',
        'auth',
        'logout',
        'changePassword',
        'updateAccount',
        'adminListUsers',
        'adminDeleteUsers',
        'adminDecideRoles',
        'adminDeletePackages',
        'createAccessToken',
        'listAccessTokens',
        'revokeAccessToken',
      ]),
    );
    for (const r of closed) {
      const path = r.path.replace(/\{(\w+)\}/g, (_, n: string) => (n === 'stage' ? 'dev' : `no-such-${n}`));
      const res = await api<Err>(path, {
        method: r.method,
        token,
        ...(r.method === 'GET' ? {} : { body: {} }),
      });
      expect([r.id, res.status, res.body.errorMessage]).toEqual([r.id, 403, ACCESS_TOKEN_ERR.personMustSign]);
    }
  });

  it('is refused a row of the scope it lacks', async () => {
    const { token } = await newToken(owner.token, { scopes: ['packages:draft'] });
    const r = await api<Err>('/resources/uploads', {
      method: 'POST',
      token,
      body: { name: 'x', resourceType: 'PATCH', resourceStage: 'DEV', fileName: 'x.bin', sizeBytes: 10 },
    });
    expect([r.status, r.body.errorMessage]).toEqual([403, ACCESS_TOKEN_ERR.missingScope('resources:upload')]);
  });
});

describe('a token ends at once', () => {
  const works = async (token: string) => (await api('/dcc', { token })).status;

  it('revoked by its owner in one call; an unknown or forged secret never worked', async () => {
    const { token, accessToken } = await newToken(owner.token);
    expect(await works(token)).toBe(200);
    const r = await api<{ accessToken: AccessTokenView }>(`/access-tokens/${accessToken.id}`, {
      method: 'DELETE',
      token: owner.token,
    });
    expect([r.status, r.body.accessToken.state]).toEqual([200, 'REVOKED']);
    const after = await api<Err>('/dcc', { token });
    expect([after.status, after.body.errorMessage]).toEqual([
      401,
      'Token invalid: this access token was revoked',
    ]);
    const forged = `${token.slice(0, 21)}${'A'.repeat(43)}`;
    expect(await works(forged)).toBe(401);
    expect(await works('frp_nonsense')).toBe(401);
  });

  it('revoked by an admin, who sees every token; another user can neither see nor revoke it', async () => {
    const { token, accessToken } = await newToken(owner.token);
    const [other] = (await accounts(1, 'DESIGN_ENGINEER_DEV', 'Other')) as [DirectUser];
    const theirs = await api<{ accessTokens: AccessTokenView[] }>('/access-tokens', { token: other.token });
    expect(theirs.body.accessTokens.map((t) => t.id)).not.toContain(accessToken.id);
    expect(
      (await api(`/access-tokens/${accessToken.id}`, { method: 'DELETE', token: other.token })).status,
    ).toBe(404);
    expect(await works(token)).toBe(200);
    const all = await api<{ accessTokens: AccessTokenView[] }>('/access-tokens', { token: admin });
    expect(all.body.accessTokens.find((t) => t.id === accessToken.id)?.owner.id).toBe(owner.id);
    expect((await api(`/access-tokens/${accessToken.id}`, { method: 'DELETE', token: admin })).status).toBe(
      200,
    );
    expect(await works(token)).toBe(401);
  });

  it('expired', async () => {
    const { token, accessToken } = await newToken(owner.token, { expiresInDays: 1 });
    expect(await works(token)).toBe(200);
    await ddb().send(
      new UpdateCommand({
        TableName: tableOf('users'),
        Key: { pk: `ACCESSTOKEN#${accessToken.id}` },
        UpdateExpression: 'SET validUntil = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    const r = await api<Err>('/dcc', { token });
    expect([r.status, r.body.errorMessage]).toEqual([401, 'Token invalid: this access token expired']);
  });

  it("with its owner's deletion, role change or refusal", async () => {
    const people = await accounts(3, 'DESIGN_ENGINEER_DEV', 'Leaving');
    const tokens = await Promise.all(people.map((p) => newToken(p.token)));
    for (const t of tokens) expect(await works(t.token)).toBe(200);
    const [deleted, moved, refused] = people as [DirectUser, DirectUser, DirectUser];
    expect((await api('/admin/users', { method: 'DELETE', token: admin, body: [deleted.id] })).status).toBe(
      200,
    );
    made.splice(made.indexOf(deleted.id), 1);
    const set = (id: string, expr: string, values: Record<string, unknown>) =>
      ddb().send(
        new UpdateCommand({
          TableName: tableOf('users'),
          Key: { pk: `USER#${id}` },
          UpdateExpression: expr,
          ExpressionAttributeValues: values,
        }),
      );
    await set(moved.id, 'SET userRole = :r', { ':r': 'DESIGN_ENGINEER_TEST' });
    await set(refused.id, 'SET roleStatus = :s', { ':s': 'REFUSED' });
    const why = [
      "the owner's account was deleted",
      "the owner's role changed",
      "the owner's role was refused or revoked by an administrator",
    ];
    for (const [i, t] of tokens.entries()) {
      const r = await api<Err>('/dcc', { token: t.token });
      expect([r.status, r.body.errorMessage]).toEqual([
        401,
        `Token invalid: this access token ended: ${why[i]}`,
      ]);
    }
  });
});

/**
 * Tokens end for good (decision 334): the change that ended a token moved its owner's token epoch in the
 * same write, so giving the role back, granting it again or choosing a new password never revives it.
 * Each sequence runs over HTTP as the people would: settings, the two-admin grant, the mailed reset.
 */
describe('an ended token stays ended', () => {
  const use = async (token: string) => {
    const r = await api<Err>('/dcc', { token });
    return [r.status, r.body.errorMessage];
  };
  const endedAs = (why: string) => [
    401,
    expect.stringMatching(
      new RegExp(
        `^Token invalid: this access token ended: ${why} on \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`,
      ),
    ),
  ];
  const listed = async (session: string, id: string) =>
    (
      await api<{ accessTokens: AccessTokenView[] }>('/access-tokens', { token: session })
    ).body.accessTokens.find((t) => t.id === id);
  const chooseRole = async (u: DirectUser, userRole: string) => {
    const r = await api<Err>('/user/account', {
      method: 'POST',
      token: u.token,
      body: { name: u.name, email: u.email, userRole },
    });
    expect(r.status, r.body.errorMessage).toBe(200);
  };

  it('after the role is changed, changed back and granted again by two admins', async () => {
    const [u] = (await accounts(1, 'DESIGN_ENGINEER_DEV', 'Epoch Flipper')) as [DirectUser];
    const { token, accessToken } = await newToken(u.token);
    expect(await use(token)).toEqual([200, undefined]);
    await chooseRole(u, 'DESIGN_ENGINEER_TEST');
    expect(await use(token)).toEqual(endedAs("the owner's role changed"));
    await chooseRole(u, 'DESIGN_ENGINEER_DEV');
    await grantRoles([u.id]);
    expect(await use(token)).toEqual(endedAs("the owner's role changed"));
    // the list (the owner's and the admins') says why it ended; a token made now works
    const mine = await listed(u.token, accessToken.id);
    expect(mine).toMatchObject({ state: 'ENDED', ended: { cause: 'ROLE_CHANGED' } });
    expect(mine?.ended?.text).toMatch(/^the owner's role changed on \d{4}-/);
    expect((await listed(admin, accessToken.id))?.state).toBe('ENDED');
    expect(await use((await newToken(u.token)).token)).toEqual([200, undefined]);
  });

  it('after the role is refused (revoked) and granted again by two admins', async () => {
    const [u] = (await accounts(1, 'DESIGN_ENGINEER_DEV', 'Refused Once')) as [DirectUser];
    const { token, accessToken } = await newToken(u.token);
    expect(await use(token)).toEqual([200, undefined]);
    await decideRoles([u.id], 'refuse');
    const refused = "the owner's role was refused or revoked by an administrator";
    expect(await use(token)).toEqual(endedAs(refused));
    await grantRoles([u.id]);
    expect(await use(token)).toEqual(endedAs(refused));
    expect(await listed(u.token, accessToken.id)).toMatchObject({
      state: 'ENDED',
      ended: { cause: 'ROLE_REFUSED' },
    });
    expect(await use((await newToken(u.token)).token)).toEqual([200, undefined]);
  });

  it('after a password reset and a new password', async () => {
    const [u] = (await accounts(1, 'DESIGN_ENGINEER_DEV', 'Reset Once')) as [DirectUser];
    const { token, accessToken } = await newToken(u.token);
    expect(await use(token)).toEqual([200, undefined]);
    const reset = await rawRequest(baseUrl(), {
      method: 'POST',
      path: '/dev/user/reset-password',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: u.email }),
      localAddress: '127.0.36.7',
    });
    expect(reset.status, errorMessageOf(reset)).toBe(200);
    // asked for only, the reset ends nothing: anyone may ask for anyone's address
    expect(await use(token)).toEqual([200, undefined]);
    const mail = (await mails(u.email)).find((m) => m.subject.includes('temporary password'));
    const temp = /Temporary password: (\S+)/.exec(mail?.text ?? '')?.[1] ?? '';
    const signedIn = await api<{ token: string } & Err>('/user/login', {
      method: 'POST',
      body: { login: u.email, password: temp },
    });
    expect(signedIn.status, signedIn.body.errorMessage).toBe(200);
    expect(await use(token)).toEqual(endedAs("the owner's password was reset"));
    const changed = await api<{ token: string } & Err>('/user/password', {
      method: 'POST',
      token: signedIn.body.token,
      body: { oldPassword: temp, newPassword: 'Pipeline-Owner-Pass-36' },
    });
    expect(changed.status, changed.body.errorMessage).toBe(200);
    expect(await use(token)).toEqual(endedAs("the owner's password was reset"));
    expect(await listed(changed.body.token, accessToken.id)).toMatchObject({
      state: 'ENDED',
      ended: { cause: 'PASSWORD_RESET' },
    });
    // a new password ends the tokens made before it too
    const fresh = await newToken(changed.body.token);
    expect(await use(fresh.token)).toEqual([200, undefined]);
    const again = await api<{ token: string } & Err>('/user/password', {
      method: 'POST',
      token: changed.body.token,
      body: { oldPassword: 'Pipeline-Owner-Pass-36', newPassword: 'Pipeline-Owner-Pass-37' },
    });
    expect(again.status, again.body.errorMessage).toBe(200);
    expect(await use(fresh.token)).toEqual(endedAs("the owner's password was changed"));
  });
});

describe('the pipeline CLI (npm run pipeline)', () => {
  it('uploads a 20 MiB file in parts, drafts the package with its header and DCC, and prints its link', async () => {
    const { token } = await newToken(owner.token, { name: 'cli' });
    const file = join(tmpdir(), `${uniq('fw')}.bin`);
    await writeFile(file, Buffer.alloc(20 * 1024 * 1024, 0x5a));
    const dccId = await createDcc(owner.token);
    const packageName = uniq('cli-pkg');
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [
        join(process.cwd(), 'node_modules/tsx/dist/cli.mjs'),
        'scripts/pipeline.ts',
        '--url',
        baseUrl(),
        '--file',
        file,
        '--resource-name',
        uniq('fw'),
        '--stage',
        'dev',
        '--package-name',
        packageName,
        '--package-type',
        'DEV_UNSIGNED',
        '--note',
        'CI build 813',
        '--header',
        HEADER_FILE,
        '--dcc',
        dccId,
      ],
      { env: { ...process.env, FRP_TOKEN: token }, maxBuffer: 1 << 20 },
    );
    // in the parts the server chose (more than one), with progress, to the last byte
    expect(stderr).toMatch(/uploaded part 1\/([2-9]|\d\d+): /);
    expect(stderr).toMatch(/uploaded part (\d+)\/\1: 20\.0 of 20\.0 MiB \(100%\)/);
    const link = stdout.trim().split('\n').at(-1) ?? '';
    expect(link).toMatch(new RegExp(`^${baseUrl()}/packages/open/[0-9a-f-]+$`));
    const id = decodeURIComponent(link.split('/').at(-1) ?? '');
    const details = await api<{ package: string }>(`/packages/${id}/details`, { token: owner.token });
    expect(details.status).toBe(200);
    const pkg = jsonText<Package & { dccId?: string; resourceFile?: { sizeBytes: number } }>(
      details.body.package,
    );
    expect([pkg.name, pkg.status, pkg.dccId, pkg.resourceFile?.sizeBytes]).toEqual([
      packageName,
      'DRAFT',
      dccId,
      20 * 1024 * 1024,
    ]);
  }, 180_000);

  it('fails with the API reason and exit code 1 when the token is refused', async () => {
    const run = promisify(execFile)(
      process.execPath,
      [
        join(process.cwd(), 'node_modules/tsx/dist/cli.mjs'),
        'scripts/pipeline.ts',
        '--url',
        baseUrl(),
        '--file',
        HEADER_FILE,
        '--resource-name',
        'x',
        '--stage',
        'dev',
        '--package-name',
        'x',
        '--package-type',
        'DEV_UNSIGNED',
        '--note',
        'n',
      ],
      {
        env: {
          ...process.env,
          FRP_TOKEN: 'frp_0000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        },
      },
    );
    await expect(run).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('401 Token invalid'),
    });
  }, 60_000);
});
