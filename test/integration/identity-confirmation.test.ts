import { createHash } from 'node:crypto';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { API_ERR, MSG } from '../../shared/messages';
import { api, jsonText, localDynamo, localTable, login, mails, SEEDED, uniq } from '../support/api';
import { confirmationToken } from '../support/identity';

/** registration on allowed domains only, and a confirmed mailbox before the first sign-in. */

const PASSWORD = 'Confirm-Tests-Pass-1';

async function register(email = `${uniq('confirm')}@example.com`, userRole = 'TECHNICAL_LEADER') {
  const r = await api<{ user: string; message: string }>('/user/register', {
    method: 'POST',
    body: { name: 'Connie Confirm', email, password: PASSWORD, userRole },
  });
  return { r, email };
}

/** Opens a link as the SPA's page does: the token and the password chosen at registration. */
const confirm = (token: string, password = PASSWORD) =>
  api<{ message: string; email: string; reason?: string; errorMessage?: string }>('/user/confirm-email', {
    method: 'POST',
    body: { token, password },
  });

const signIn = (email: string, password = PASSWORD) =>
  api<{ token?: string; errorMessage?: string; authError?: string; emailNotConfirmed?: boolean }>(
    '/user/login',
    { method: 'POST', body: { login: email, password } },
  );

describe('allowed email domains', () => {
  it('refuses an address outside the allowed domains with 400 naming the rule, and stores nothing', async () => {
    const email = `${uniq('outsider')}@gmail.com`;
    const { r } = await register(email);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      errorMessage:
        'Use your company email address: only addresses at @example.com, @example.org can be registered',
    });
    expect(await mails(email)).toHaveLength(0);
    // nothing was claimed: the reset answers "User not found"
    expect((await api('/user/reset-password', { method: 'POST', body: { email } })).status).toBe(404);
  });

  it('accepts both local domains (example.com and example.org)', async () => {
    expect((await register(`${uniq('dot-org')}@example.org`)).r.status).toBe(201);
    expect((await register(`${uniq('dot-com')}@example.com`)).r.status).toBe(201);
  });

  it('refuses moving an account onto an address outside the allowed domains', async () => {
    const token = await login(SEEDED.lead);
    const r = await api('/user/account', {
      method: 'POST',
      token,
      body: { name: 'Terry Lead', email: 'terry@gmail.com', userRole: 'TECHNICAL_LEADER' },
    });
    expect(r.status).toBe(400);
    expect(String(r.body.errorMessage)).toContain('only addresses at @example.com, @example.org');
  });
});

describe('confirming the address', () => {
  it('mails a link into the SPA; signing in before opening it is refused with an authError offering a new link', async () => {
    const { r, email } = await register();
    expect(r.status).toBe(201);
    expect(r.body.message).toBe(MSG.registered);
    const mail = (await mails(email)).at(-1)!;
    expect(mail.subject).toBe('Firmware Release Portal: confirm your email address');
    expect(mail.text).toMatch(/http:\/\/localhost:\d+\/user\/confirm-email\?token=[A-Za-z0-9_-]{43}\b/);
    expect(mail.text).toContain('24 hours');

    const early = await signIn(email);
    expect(early.status).toBe(403);
    expect(early.body).toEqual({
      errorMessage: API_ERR.emailNotConfirmed,
      authError: API_ERR.emailNotConfirmed,
      emailNotConfirmed: true,
    });
    // a wrong password still gets the usual answer: the confirmation state is told only to the owner
    expect((await signIn(email, 'Not-The-Password-1')).status).toBe(401);

    const ok = await confirm(await confirmationToken(email));
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'CONFIRMED', message: API_ERR.emailConfirmed, email });
    const after = await signIn(email);
    expect(after.status).toBe(200);
    expect(after.body.token).toBeTruthy();
  });

  it('stores only the SHA-256 of the token, never the token', async () => {
    const { email } = await register();
    const token = await confirmationToken(email);
    const ddb = await localDynamo();
    const byHash = await ddb.send(
      new GetCommand({
        TableName: localTable('users'),
        Key: { pk: `EMAILTOKEN#${createHash('sha256').update(token).digest('hex')}` },
      }),
    );
    expect(byHash.Item).toMatchObject({ email, purpose: 'REGISTER' });
    expect(JSON.stringify(byHash.Item)).not.toContain(token);
    expect(
      (await ddb.send(new GetCommand({ TableName: localTable('users'), Key: { pk: `EMAILTOKEN#${token}` } })))
        .Item,
    ).toBeUndefined();
    // and no item anywhere in the table holds the token in clear
    const tokens = await ddb.send(
      new QueryCommand({
        TableName: localTable('users'),
        IndexName: 'byKind',
        KeyConditionExpression: 'kind = :k',
        ExpressionAttributeValues: { ':k': 'EMAIL_TOKEN' },
      }),
    );
    expect(JSON.stringify(tokens.Items ?? [])).not.toContain(token);
  });

  it('uses a link once: a second use gets 409 with a clear message', async () => {
    const { email } = await register();
    const token = await confirmationToken(email);
    expect((await confirm(token)).status).toBe(200);
    const again = await confirm(token);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ errorMessage: API_ERR.confirmLinkUsed, reason: 'USED' });
  });

  it('refuses a link older than 24 hours with a clear message, and a new link then works', async () => {
    const { email } = await register();
    const token = await confirmationToken(email);
    const ddb = await localDynamo();
    await ddb.send(
      new UpdateCommand({
        TableName: localTable('users'),
        Key: { pk: `EMAILTOKEN#${createHash('sha256').update(token).digest('hex')}` },
        UpdateExpression: 'SET validUntil = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    const expired = await confirm(token);
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ errorMessage: API_ERR.confirmLinkExpired, reason: 'EXPIRED' });
    expect((await signIn(email)).status).toBe(403);

    const resent = await api('/user/confirm-email/resend', { method: 'POST', body: { email } });
    expect(resent.status).toBe(200);
    const fresh = await confirmationToken(email);
    expect(fresh).not.toBe(token);
    expect((await confirm(fresh)).status).toBe(200);
    expect((await signIn(email)).status).toBe(200);
  });

  it('refuses an unknown or malformed token with 400', async () => {
    const unknown = await confirm('A'.repeat(43));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ errorMessage: API_ERR.confirmLinkInvalid, reason: 'INVALID' });
    const malformed = await confirm('not a token!');
    expect(malformed.status).toBe(400);
    expect(typeof malformed.body.errorMessage).toBe('string');
  });
});

describe('asking for a new link', () => {
  it('answers an unknown address exactly like an unconfirmed one, and mails only the real one', async () => {
    const { email } = await register();
    const unknown = `${uniq('nobody')}@example.com`;
    const before = (await mails(email)).length;
    const a = await api('/user/confirm-email/resend', { method: 'POST', body: { email } });
    const b = await api('/user/confirm-email/resend', { method: 'POST', body: { email: unknown } });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body).toEqual(b.body);
    expect(a.body.message).toBe(API_ERR.confirmationResent);
    expect(await mails(email)).toHaveLength(before + 1);
    expect(await mails(unknown)).toHaveLength(0);
  });

  it('mails nothing to a confirmed account', async () => {
    const before = (await mails(SEEDED.reliability)).length;
    const r = await api('/user/confirm-email/resend', {
      method: 'POST',
      body: { email: SEEDED.reliability },
    });
    expect(r.status).toBe(200);
    expect(await mails(SEEDED.reliability)).toHaveLength(before);
  });

  it('answers 429 after three links for one address within 15 minutes, and mails no fourth', async () => {
    const { email } = await register();
    for (let i = 0; i < 3; i++)
      expect((await api('/user/confirm-email/resend', { method: 'POST', body: { email } })).status).toBe(200);
    const count = (await mails(email)).length;
    const fourth = await api('/user/confirm-email/resend', { method: 'POST', body: { email } });
    expect(fourth.status).toBe(429);
    expect(String(fourth.body.errorMessage)).toMatch(
      /^Too many confirmation links were asked for this address\. Try again in \d+ minutes\.$/,
    );
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await mails(email)).toHaveLength(count);
    // the limit is the same for an unknown address, so it tells nothing either
    const unknown = `${uniq('nobody')}@example.com`;
    for (let i = 0; i < 3; i++)
      await api('/user/confirm-email/resend', { method: 'POST', body: { email: unknown } });
    expect(
      (await api('/user/confirm-email/resend', { method: 'POST', body: { email: unknown } })).status,
    ).toBe(429);
  });
});

describe('changing the email in settings', () => {
  async function confirmedUser() {
    const { email } = await register();
    expect((await confirm(await confirmationToken(email))).status).toBe(200);
    return { email, token: (await signIn(email)).body.token! };
  }

  it('mails the new address; the old one stays the login until the link is opened', async () => {
    const { email, token } = await confirmedUser();
    const next = `${uniq('moved')}@example.org`;
    const r = await api<{ user: string }>('/user/account', {
      method: 'POST',
      token,
      body: { name: 'Connie Confirm', email: next, userRole: 'TECHNICAL_LEADER' },
    });
    expect(r.status).toBe(200);
    expect(jsonText<Record<string, unknown>>(r.body.user)).toMatchObject({ email, pendingEmail: next });
    const mail = (await mails(next)).at(-1)!;
    expect(mail.subject).toBe('Firmware Release Portal: confirm your email address');
    expect((await signIn(email)).status).toBe(200);
    expect((await signIn(next)).status).toBe(401);

    const ok = await confirm(await confirmationToken(next));
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ message: API_ERR.emailChangeConfirmed, email: next });
    expect((await signIn(next)).status).toBe(200);
    expect((await signIn(email)).status).toBe(401);
    const me = await api<{ user: string }>('/user/auth', { method: 'POST', token });
    expect(jsonText<Record<string, unknown>>(me.body.user)).toMatchObject({ email: next });
    expect(jsonText<Record<string, unknown>>(me.body.user)).not.toHaveProperty('pendingEmail');
  });

  it('lets only the newest change be confirmed', async () => {
    const { token } = await confirmedUser();
    const first = `${uniq('first')}@example.com`;
    const second = `${uniq('second')}@example.com`;
    for (const email of [first, second])
      expect(
        (
          await api('/user/account', {
            method: 'POST',
            token,
            body: { name: 'Connie Confirm', email, userRole: 'TECHNICAL_LEADER' },
          })
        ).status,
      ).toBe(200);
    const stale = await confirm(await confirmationToken(first));
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ errorMessage: API_ERR.confirmLinkReplaced, reason: 'REPLACED' });
    expect((await confirm(await confirmationToken(second))).status).toBe(200);
    expect((await signIn(second)).status).toBe(200);
  });
});

describe('seeded users', () => {
  it('are confirmed and hold granted roles', async () => {
    const admin = await login(SEEDED.admin);
    const users = jsonText<{ email: string; roleStatus: string; emailConfirmed: boolean }[]>(
      (await api<{ users: string }>('/admin/users', { token: admin })).body.users,
    );
    for (const email of Object.values(SEEDED))
      expect(users.find((u) => u.email === email)).toMatchObject({
        roleStatus: 'GRANTED',
        emailConfirmed: true,
      });
  });
});
