import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { API_ERR } from '../../shared/messages';
import { api, jsonText, localDynamo, localTable, uniq } from '../support/api';
import { registerConfirmed } from '../support/identity';

/** `npm run admin:create -- --local` against a running local stack (the run's test stack). */

const root = resolve(import.meta.dirname, '..', '..');

async function adminCreate(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', resolve(root, 'scripts/admin-create.ts'), ...args],
      { cwd: root, env: { ...process.env, DATA_DIR: inject('dataDir') }, timeout: 60_000 },
    );
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

const temporaryPassword = (stdout: string) => /^Temporary password: (\S+)$/m.exec(stdout)?.[1];

const signIn = (login: string, password: string) =>
  api<{ token: string; user: string; mustChangePassword?: boolean; errorMessage?: string }>('/user/login', {
    method: 'POST',
    body: { login, password },
  });

describe('npm run admin:create --local', () => {
  it('creates a confirmed, granted admin whose one-time password must be replaced at first sign-in', async () => {
    const email = `${uniq('first-admin')}@example.com`;
    const r = await adminCreate('--local', '--email', email, '--name', 'First Admin');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Created the administrator ${email}`);
    const temp = temporaryPassword(r.stdout);
    expect(temp).toMatch(/^[A-Za-z0-9_-]{24}$/);

    const first = await signIn(email, temp!);
    expect(first.status).toBe(200);
    expect(first.body.mustChangePassword).toBe(true);
    expect(jsonText<Record<string, unknown>>(first.body.user)).toMatchObject({
      email,
      name: 'First Admin',
      userRole: 'ADMIN',
      roleStatus: 'GRANTED',
    });
    // nothing but the password change until a password of their own is chosen
    const early = await api('/admin/users', { token: first.body.token });
    expect(early.status).toBe(403);
    expect(early.body.errorMessage).toBe(API_ERR.mustChangePassword);
    const auth = await api('/user/auth', { method: 'POST', token: first.body.token });
    expect(auth.body.mustChangePassword).toBe(true);

    const changed = await api<{ token: string }>('/user/password', {
      method: 'POST',
      token: first.body.token,
      body: { oldPassword: temp, newPassword: 'My-Own-Admin-Pass-1' },
    });
    expect(changed.status).toBe(200);
    expect((await api('/admin/users', { token: changed.body.token })).status).toBe(200);
    expect((await signIn(email, temp!)).status).toBe(401);
    const again = await signIn(email, 'My-Own-Admin-Pass-1');
    expect(again.status).toBe(200);
    expect(again.body.mustChangePassword).toBeUndefined();

    const id = jsonText<{ id: string }>(first.body.user).id;
    const trail = await (await localDynamo()).send(
      new QueryCommand({
        TableName: localTable('audit'),
        KeyConditionExpression: 'pk = :p AND seq > :z',
        ExpressionAttributeValues: { ':p': `USER#${id}`, ':z': 0 },
      }),
    );
    expect(trail.Items?.[0]).toMatchObject({
      action: 'ADMIN_CREATED',
      actorName: 'npm run admin:create',
      meaning: `creates the administrator ${email} with a one-time password`,
    });
  });

  it('promotes an existing account to a confirmed, granted admin', async () => {
    const user = await registerConfirmed({
      name: 'Promoted Person',
      email: `${uniq('promoted')}@example.com`,
      password: 'Promoted-Pass-1',
      userRole: 'TECHNICAL_LEADER',
    });
    const r = await adminCreate('--local', '--email', user.email, '--name', 'Promoted Person');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Promoted ${user.email} to administrator`);
    const login = await signIn(user.email, temporaryPassword(r.stdout)!);
    expect(login.status).toBe(200);
    expect(jsonText<Record<string, unknown>>(login.body.user)).toMatchObject({
      id: user.id,
      userRole: 'ADMIN',
      roleStatus: 'GRANTED',
    });
    // the old password no longer works: the account's sign-in is now the one-time password
    expect((await signIn(user.email, 'Promoted-Pass-1')).status).toBe(401);
  });

  it('refuses missing or malformed arguments with a clear message and exit code 2', async () => {
    const noEmail = await adminCreate('--local', '--name', 'Nobody');
    expect(noEmail.code).toBe(2);
    expect(noEmail.stderr).toContain('--email must be an email address');
    const noStack = await adminCreate(
      '--local',
      '--email',
      'x@example.com',
      '--name',
      'X',
      '--data-dir',
      '/nonexistent',
    );
    expect(noStack.code).toBe(2);
    expect(noStack.stderr).toContain('start the local stack first');
  });
});
