import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { API_ERR, MSG } from '../../shared/messages';
import { api, baseUrl, jsonText, localDynamo, localTable, mails, uniq } from '../support/api';
import { directUsers } from '../support/direct-users';
import { confirmationToken } from '../support/identity';
import { errorMessageOf, rawRequest } from '../support/raw-http';

/**
 * the registrant is the mailbox owner. Someone who registers another person's address cannot get
 * it confirmed (confirming needs the password chosen at registration as well as the mailed token), the
 * owner can cancel it ("I did not register"), an unconfirmed registration is forgotten after 24 hours,
 * and a mailed temporary password must be changed before anything else and never signs a decision.
 */

const SQUATTER_PASSWORD = 'Squatter-Pass-123';
const OWNER_PASSWORD = 'Owner-Pass-12345';

async function register(email: string, password: string) {
  const r = await api<{ user: string }>('/user/register', {
    method: 'POST',
    body: { name: 'New Hire', email, password, userRole: 'TECHNICAL_LEADER' },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return jsonText<{ id: string }>(r.body.user).id;
}

const confirm = (token: string, password: string) =>
  api<{ status?: string; message?: string; errorMessage?: string; reason?: string }>('/user/confirm-email', {
    method: 'POST',
    body: { token, password },
  });

const cancel = (token: string) =>
  api<{ status?: string; message?: string; errorMessage?: string; reason?: string }>(
    '/user/confirm-email/cancel',
    { method: 'POST', body: { token } },
  );

const signIn = (email: string, password: string) =>
  api<{ token?: string; mustChangePassword?: boolean; errorMessage?: string }>('/user/login', {
    method: 'POST',
    body: { login: email, password },
  });

const userItem = async (id: string) =>
  (
    await (
      await localDynamo()
    ).send(new GetCommand({ TableName: localTable('users'), Key: { pk: `USER#${id}` } }))
  ).Item;
const claimItem = async (email: string) =>
  (
    await (
      await localDynamo()
    ).send(new GetCommand({ TableName: localTable('users'), Key: { pk: `EMAIL#${email.toLowerCase()}` } }))
  ).Item;

describe('confirming takes the mailed token and the password chosen at registration', () => {
  it('refuses the mailbox owner who did not choose the password: 403, nothing changes, the registrant stays unconfirmed', async () => {
    const email = `${uniq('new-hire')}@example.com`;
    await register(email, SQUATTER_PASSWORD);
    const token = await confirmationToken(email);
    const wrong = await confirm(token, OWNER_PASSWORD);
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({
      errorMessage: API_ERR.confirmPasswordWrong,
      reason: 'WRONG_PASSWORD',
    });
    // not confirmed: the registrant's password does not sign in
    const early = await signIn(email, SQUATTER_PASSWORD);
    expect(early.status).toBe(403);
    expect(early.body.errorMessage).toBe(API_ERR.emailNotConfirmed);
    // the link is not spent by a wrong password; with the chosen password it confirms
    const ok = await confirm(token, SQUATTER_PASSWORD);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'CONFIRMED', message: API_ERR.emailConfirmed });
    expect((await signIn(email, SQUATTER_PASSWORD)).status).toBe(200);
  });

  it('asks for the password when it is missing (400) and throttles wrong passwords like sign-in (429)', async () => {
    const email = `${uniq('guessed')}@example.com`;
    await register(email, SQUATTER_PASSWORD);
    const token = await confirmationToken(email);
    const none = await api('/user/confirm-email', { method: 'POST', body: { token } });
    expect(none.status).toBe(400);
    expect(none.body.errorMessage).toBe(API_ERR.confirmPasswordNeeded);
    for (let i = 0; i < 5; i++) expect((await confirm(token, `Guess-Number-${i}`)).status).toBe(403);
    const locked = await confirm(token, SQUATTER_PASSWORD);
    expect(locked.status).toBe(429);
    expect(String(locked.body.errorMessage)).toMatch(
      /^Too many failed sign-in attempts\. Try again in \d+ seconds\.$/,
    );
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // from another source the (account, source) lock does not hold: the registrant confirms
    const other = await rawRequest(baseUrl(), {
      method: 'POST',
      path: '/dev/user/confirm-email',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, password: SQUATTER_PASSWORD }),
      localAddress: '127.0.23.21',
    });
    expect(other.status, other.text).toBe(200);
  });
});

describe('"I did not register"', () => {
  it('cancels the registration with the token alone: the address is free, the registrant holds nothing', async () => {
    const email = `${uniq('squatted')}@example.com`;
    const squatterId = await register(email, SQUATTER_PASSWORD);
    const token = await confirmationToken(email);
    const r = await cancel(token);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'CANCELLED', message: API_ERR.registrationCancelled });
    expect(await userItem(squatterId)).toBeUndefined();
    expect(await claimItem(email)).toBeUndefined();
    expect((await signIn(email, SQUATTER_PASSWORD)).status).toBe(401);
    // the link is spent for both uses
    expect((await cancel(token)).status).toBe(409);
    expect((await confirm(token, SQUATTER_PASSWORD)).status).toBe(409);
    // the owner registers the address and confirms it with their own password
    await register(email, OWNER_PASSWORD);
    expect((await confirm(await confirmationToken(email), OWNER_PASSWORD)).status).toBe(200);
    expect((await signIn(email, OWNER_PASSWORD)).status).toBe(200);
  });

  it('does not cancel a confirmed account, and refuses an unknown token', async () => {
    const email = `${uniq('confirmed')}@example.com`;
    await register(email, OWNER_PASSWORD);
    const token = await confirmationToken(email);
    expect((await confirm(token, OWNER_PASSWORD)).status).toBe(200);
    expect((await cancel(token)).status).toBe(409);
    expect((await cancel('B'.repeat(43))).status).toBe(400);
    expect((await signIn(email, OWNER_PASSWORD)).status).toBe(200);
  });
});

describe('an unconfirmed registration expires after 24 hours', () => {
  it('carries the TTL on the account and its address claim; confirming removes both', async () => {
    const email = `${uniq('ttl')}@example.com`;
    const before = Date.now();
    const id = await register(email, OWNER_PASSWORD);
    const user = await userItem(id);
    const claim = await claimItem(email);
    const day = 24 * 3600;
    expect(Number(user?.expiresAt)).toBeGreaterThanOrEqual(Math.floor(before / 1000) + day);
    expect(Number(user?.expiresAt)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + day);
    expect(claim?.expiresAt).toBe(user?.expiresAt);
    expect((await confirm(await confirmationToken(email), OWNER_PASSWORD)).status).toBe(200);
    expect(await userItem(id)).not.toHaveProperty('expiresAt');
    expect(await userItem(id)).not.toHaveProperty('unconfirmedUntil');
    expect(await claimItem(email)).not.toHaveProperty('expiresAt');
  });

  it('treats an expired registration that TTL has not removed yet as absent: the address registers again', async () => {
    const email = `${uniq('expired')}@example.com`;
    const squatterId = await register(email, SQUATTER_PASSWORD);
    const oldToken = await confirmationToken(email);
    // 24 hours later (DynamoDB's TTL deletes lazily: the items are still there)
    const past = new Date(Date.now() - 1000).toISOString();
    await (await localDynamo()).send(
      new UpdateCommand({
        TableName: localTable('users'),
        Key: { pk: `USER#${squatterId}` },
        UpdateExpression: 'SET unconfirmedUntil = :past',
        ExpressionAttributeValues: { ':past': past },
      }),
    );
    expect((await signIn(email, SQUATTER_PASSWORD)).status).toBe(401);
    const before = (await mails(email)).length;
    expect((await api('/user/confirm-email/resend', { method: 'POST', body: { email } })).status).toBe(200);
    expect(await mails(email)).toHaveLength(before);
    expect((await confirm(oldToken, SQUATTER_PASSWORD)).status).toBe(410);

    const ownerId = await register(email, OWNER_PASSWORD);
    expect(ownerId).not.toBe(squatterId);
    expect(await userItem(squatterId)).toBeUndefined();
    expect((await claimItem(email))?.userId).toBe(ownerId);
    expect((await confirm(oldToken, SQUATTER_PASSWORD)).status).toBe(400);
    expect((await confirm(await confirmationToken(email), OWNER_PASSWORD)).status).toBe(200);
    expect((await signIn(email, OWNER_PASSWORD)).status).toBe(200);
  });

  it('still refuses an address whose registration has not expired, with the spec text', async () => {
    const email = `${uniq('fresh')}@example.com`;
    await register(email, SQUATTER_PASSWORD);
    const again = await api('/user/register', {
      method: 'POST',
      body: { name: 'Owner', email, password: OWNER_PASSWORD, userRole: 'TECHNICAL_LEADER' },
    });
    expect(again.status).toBe(409);
    expect(again.body.errorMessage).toBe(MSG.registerConflict);
  });
});

describe('a temporary password must be changed at the first sign-in', () => {
  it('says mustChangePassword, allows nothing but the change, and never signs a decision', async () => {
    const [user] = await directUsers(1, 'TECHNICAL_LEADER', 'Forgetful');
    const reset = await rawRequest(baseUrl(), {
      method: 'POST',
      path: '/dev/user/reset-password',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: user!.email }),
      localAddress: '127.0.23.22',
    });
    expect(reset.status, errorMessageOf(reset)).toBe(200);
    const mail = (await mails(user!.email)).find((m) => m.subject.includes('temporary password'))!;
    const temp = /Temporary password: (\S+)/.exec(mail.text)![1]!;
    const first = await signIn(user!.email, temp);
    expect(first.status).toBe(200);
    expect(first.body.mustChangePassword).toBe(true);
    const token = first.body.token!;
    const me = await api<{ mustChangePassword?: boolean }>('/user/auth', { method: 'POST', token });
    expect(me.body.mustChangePassword).toBe(true);
    // nothing else until it is changed: no list, and no decision signed with the temporary password
    const list = await api('/dev/packages', { token });
    expect(list.status).toBe(403);
    expect(list.body.errorMessage).toBe(API_ERR.mustChangePassword);
    const decision = await api('/packages/any-package/approve', {
      method: 'POST',
      token,
      body: { password: temp },
    });
    expect(decision.status).toBe(403);
    expect(decision.body.errorMessage).toBe(API_ERR.mustChangePassword);
    // signing in again with it says the same
    expect((await signIn(user!.email, temp)).body.mustChangePassword).toBe(true);

    const changed = await api<{ token: string }>('/user/password', {
      method: 'POST',
      token,
      body: { oldPassword: temp, newPassword: 'My-Own-Password-1' },
    });
    expect(changed.status).toBe(200);
    expect((await api('/dev/packages', { token: changed.body.token })).status).toBe(200);
    const later = await signIn(user!.email, 'My-Own-Password-1');
    expect(later.status).toBe(200);
    expect(later.body.mustChangePassword).toBeUndefined();
  });
});
