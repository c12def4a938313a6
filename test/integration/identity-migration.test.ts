import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { API_ERR } from '../../shared/messages';
import { apiAt, jsonText, SEEDED, uniq } from '../support/api';
import { type StackProcess, startStackProcess } from '../support/stack-process';
import { dynamoAt, scanAll, tableOf } from '../support/store';

/**
 * Decision 070: user items written before role requests and confirmed mailboxes carry neither `roleStatus` nor `emailConfirmed`. They
 * are read as REQUESTED and unconfirmed (admins excepted), and a restart of the local stack on such a
 * data folder makes its seeded users confirmed and granted.
 */
const dir = mkdtempSync(join(tmpdir(), 'frp-migration-'));
let stack: StackProcess | undefined;
afterAll(async () => {
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const signIn = (login: string, password: string) =>
  apiAt<{ token?: string; errorMessage?: string }>(stack!.url, '/user/login', {
    method: 'POST',
    body: { login, password },
  });

/** Removes the issue-12 fields, as an item written by the earlier code looks. */
async function makeLegacy(email: string) {
  const ddb = dynamoAt(stack!.dynamoEndpoint);
  const item = (await scanAll(ddb, tableOf('users'))).find((i) => i.kind === 'USER' && i.email === email)!;
  await ddb.send(
    new UpdateCommand({
      TableName: tableOf('users'),
      Key: { pk: item.pk },
      UpdateExpression: 'REMOVE roleStatus, emailConfirmed',
    }),
  );
}

describe('records older than role requests and confirmed mailboxes', () => {
  it('are read as requested and unconfirmed, except admins; a restart confirms and grants the seeded users', async () => {
    stack = await startStackProcess({}, dir);
    const legacy = `${uniq('legacy')}@example.com`;
    const reg = await apiAt(stack.url, '/user/register', {
      method: 'POST',
      body: { name: 'Old Timer', email: legacy, password: 'Old-Timer-Pass-1', userRole: 'TECHNICAL_LEADER' },
    });
    expect(reg.status).toBe(201);
    for (const email of [legacy, SEEDED.lead, SEEDED.admin]) await makeLegacy(email);

    // an old self-made account: the right password, but the address waits for confirmation
    const old = await signIn(legacy, 'Old-Timer-Pass-1');
    expect(old.status).toBe(403);
    expect(old.body.errorMessage).toBe(API_ERR.emailNotConfirmed);
    // an old admin keeps its authority
    const admin = await signIn(SEEDED.admin, SEED_PASSWORD);
    expect(admin.status).toBe(200);
    const users = jsonText<{ email: string; roleStatus: string; emailConfirmed: boolean }[]>(
      (await apiAt<{ users: string }>(stack.url, '/admin/users', { token: admin.body.token })).body.users,
    );
    expect(users.find((u) => u.email === legacy)).toMatchObject({
      roleStatus: 'REQUESTED',
      emailConfirmed: false,
    });
    expect(users.find((u) => u.email === SEEDED.lead)).toMatchObject({
      roleStatus: 'REQUESTED',
      emailConfirmed: false,
    });
    expect((await signIn(SEEDED.lead, SEED_PASSWORD)).status).toBe(403);

    // the same data folder started again: seeded users are confirmed and granted, the others are not
    await stack.stop();
    stack = await startStackProcess({}, dir);
    const lead = await signIn(SEEDED.lead, SEED_PASSWORD);
    expect(lead.status).toBe(200);
    const dcc = await apiAt(stack.url, '/dcc', {
      method: 'POST',
      token: lead.body.token,
      body: { deviceId: uniq('legacy-dev'), telemetryType: 'TelB', messageLimit: 64, deviceLimit: 4096 },
    });
    expect(dcc.status).toBe(201);
    expect((await signIn(legacy, 'Old-Timer-Pass-1')).status).toBe(403);
  }, 240_000);
});
