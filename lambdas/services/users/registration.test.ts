import { describe, expect, it } from 'vitest';
import { API_ERR, MSG } from '../../../shared/messages';
import { makeUsers, PASSWORD, SCRYPT_TIMEOUT_MS, tokenOf } from '../../testing/users.fixtures';

const newcomer = (email: string) =>
  ({ name: 'New Comer', email, password: PASSWORD, userRole: 'TECHNICAL_LEADER' }) as const;

describe('registration', { timeout: SCRYPT_TIMEOUT_MS }, () => {
  it('stores an unconfirmed account that asks for its role, and mails a single-use link', async () => {
    const { service, users, mailer, audit } = makeUsers();
    const u = await service.register(newcomer('new@medical.example'), 'src');
    expect(u).toMatchObject({ roleStatus: 'REQUESTED', requestedRole: 'TECHNICAL_LEADER' });
    expect((await users.getByEmail('new@medical.example'))?.emailConfirmed).toBe(false);
    const [mail] = mailer.to('new@medical.example');
    expect(mail?.subject).toBe('Firmware Release Portal: confirm your email address');
    expect(mail?.text).toContain('https://portal.example/user/confirm-email?token=');
    expect(audit.actions()).toEqual(['USER_REGISTERED']);
  });

  it('keeps no account when the mail cannot go out, so registering again is the retry', async () => {
    const { service, users, mailer, audit } = makeUsers();
    mailer.failing = true;
    await expect(service.register(newcomer('new@medical.example'), 'src')).rejects.toThrow('SES is down');
    expect(await users.getByEmail('new@medical.example')).toBeNull();
    expect(audit.events).toEqual([]);
    mailer.failing = false;
    await expect(service.register(newcomer('new@medical.example'), 'src')).resolves.toMatchObject({
      email: 'new@medical.example',
    });
  });

  it('refuses an address that was ever registered, deleted accounts included', async () => {
    const { service, account, users, clock } = makeUsers();
    const u = await account('TECHNICAL_LEADER');
    await expect(service.register(newcomer(u.email.toUpperCase()), 'src')).rejects.toMatchObject({
      statusCode: 409,
      message: MSG.registerConflict,
    });
    await users.delete(u, clock.now().toISOString());
    await expect(service.register(newcomer(u.email), 'src')).rejects.toMatchObject({ statusCode: 409 });
  });
});

describe('confirmation links', { timeout: SCRYPT_TIMEOUT_MS }, () => {
  it('confirms the address once, then tells every granted admin but the user of the request', async () => {
    const { service, users, mailer, account, audit } = makeUsers();
    const admin = await account('ADMIN');
    const refusedAdmin = await account('ADMIN', { roleStatus: 'REFUSED' });
    await service.register(newcomer('new@medical.example'), 'src');
    const token = tokenOf(mailer.to('new@medical.example')[0]!);
    await expect(service.confirmEmail(token, PASSWORD, 'src')).resolves.toEqual({
      message: API_ERR.emailConfirmed,
      email: 'new@medical.example',
    });
    expect((await users.getByEmail('new@medical.example'))?.emailConfirmed).toBe(true);
    expect(mailer.to(admin.email).map((m) => m.subject)).toEqual([
      'Role request: New Comer asks for Technical Leader',
    ]);
    expect(mailer.to(refusedAdmin.email)).toEqual([]);
    expect(audit.actions()).toEqual(['USER_REGISTERED', 'EMAIL_CONFIRMED']);
    await expect(service.confirmEmail(token, PASSWORD, 'src')).rejects.toMatchObject({
      statusCode: 409,
      extra: { reason: 'USED' },
    });
  });

  it('answers an unknown link 400 and an expired one 410, changing nothing', async () => {
    const { service, users, mailer, clock } = makeUsers();
    await service.register(newcomer('new@medical.example'), 'src');
    const token = tokenOf(mailer.to('new@medical.example')[0]!);
    await expect(service.confirmEmail('x'.repeat(43), PASSWORD, 'src')).rejects.toMatchObject({
      statusCode: 400,
      extra: { reason: 'INVALID' },
    });
    clock.advanceSeconds(24 * 3600);
    await expect(service.confirmEmail(token, PASSWORD, 'src')).rejects.toMatchObject({
      statusCode: 410,
      message: API_ERR.confirmLinkExpired,
    });
    expect((await users.getByEmail('new@medical.example'))?.emailConfirmed).toBe(false);
  });

  it('resends at most three links per address in 15 minutes, known address or not, and the same answer', async () => {
    const { service, mailer } = makeUsers();
    await service.register(newcomer('new@medical.example'), 'src');
    for (let i = 0; i < 3; i++) {
      await service.resendConfirmation('NEW@medical.example');
      await service.resendConfirmation('nobody@medical.example');
    }
    expect(mailer.to('new@medical.example')).toHaveLength(4);
    for (const address of ['new@medical.example', 'nobody@medical.example'])
      await expect(service.resendConfirmation(address)).rejects.toMatchObject({
        statusCode: 429,
        message: API_ERR.tooManyConfirmationMails(15),
      });
  });

  it('answers a resend alike when the mail fails, and sends none for a confirmed address', async () => {
    const { service, mailer, account } = makeUsers();
    const u = await account('TECHNICAL_LEADER');
    await service.register(newcomer('new@medical.example'), 'src');
    mailer.failing = true;
    await expect(service.resendConfirmation('new@medical.example')).resolves.toBeUndefined();
    mailer.failing = false;
    await service.resendConfirmation(u.email);
    expect(mailer.to(u.email)).toEqual([]);
  });
});

describe('the registrant is the mailbox owner', { timeout: SCRYPT_TIMEOUT_MS }, () => {
  it('confirms only with the password chosen at registration: a wrong one is 403, changes nothing and is throttled', async () => {
    const { service, users, mailer, audit } = makeUsers();
    await service.register(newcomer('new@medical.example'), 'src');
    const token = tokenOf(mailer.to('new@medical.example')[0]!);
    for (let i = 0; i < 5; i++)
      await expect(service.confirmEmail(token, `Wrong-Guess-${i}`, 'src')).rejects.toMatchObject({
        statusCode: 403,
        message: API_ERR.confirmPasswordWrong,
        extra: { reason: 'WRONG_PASSWORD' },
      });
    // the sign-in throttle of this (account, source): even the right password waits now
    await expect(service.confirmEmail(token, PASSWORD, 'src')).rejects.toMatchObject({ statusCode: 429 });
    expect((await users.getByEmail('new@medical.example'))?.emailConfirmed).toBe(false);
    expect(audit.actions()).toEqual(['USER_REGISTERED']);
    // the owner's own source is not locked by the failures of another one
    await expect(service.confirmEmail(token, PASSWORD, 'owner')).resolves.toMatchObject({
      message: API_ERR.emailConfirmed,
    });
  });

  it('"I did not register" removes the registration with the token alone and frees the address', async () => {
    const { service, users, mailer, audit } = makeUsers();
    await service.register(newcomer('new@medical.example'), 'src');
    const token = tokenOf(mailer.to('new@medical.example')[0]!);
    await expect(service.cancelRegistration(token)).resolves.toEqual({
      message: API_ERR.registrationCancelled,
      email: 'new@medical.example',
    });
    expect(await users.getByEmail('new@medical.example')).toBeNull();
    expect(audit.actions()).toEqual(['USER_REGISTERED', 'REGISTRATION_CANCELLED']);
    // the link is spent: neither confirming nor cancelling again works
    await expect(service.confirmEmail(token, PASSWORD, 'src')).rejects.toMatchObject({ statusCode: 409 });
    await expect(service.cancelRegistration(token)).rejects.toMatchObject({ statusCode: 409 });
    await expect(service.register(newcomer('new@medical.example'), 'src')).resolves.toMatchObject({
      email: 'new@medical.example',
    });
  });

  it('does not cancel a confirmed registration', async () => {
    const { service, users, mailer } = makeUsers();
    await service.register(newcomer('new@medical.example'), 'src');
    const token = tokenOf(mailer.to('new@medical.example')[0]!);
    await service.confirmEmail(token, PASSWORD, 'src');
    await service.resendConfirmation('new@medical.example');
    await expect(service.cancelRegistration(token)).rejects.toMatchObject({ statusCode: 409 });
    expect((await users.getByEmail('new@medical.example'))?.emailConfirmed).toBe(true);
  });

  it('forgets an unconfirmed registration after 24 hours: the address registers again, the old one is gone', async () => {
    const { service, users, mailer, clock } = makeUsers();
    const squatter = await service.register(newcomer('new@medical.example'), 'src');
    const oldToken = tokenOf(mailer.to('new@medical.example')[0]!);
    // a resent link does not extend the registration
    clock.advanceSeconds(23 * 3600);
    await service.resendConfirmation('new@medical.example');
    clock.advanceSeconds(3600);
    await expect(service.login('new@medical.example', PASSWORD, 'src')).rejects.toMatchObject({
      statusCode: 401,
    });
    const resent = tokenOf(mailer.to('new@medical.example').at(-1)!);
    await expect(service.confirmEmail(resent, PASSWORD, 'src')).rejects.toMatchObject({ statusCode: 410 });
    const owner = await service.register(
      { ...newcomer('new@medical.example'), password: 'Owners-Pass-12' },
      'src',
    );
    expect(owner.id).not.toBe(squatter.id);
    expect(await users.getById(squatter.id)).toBeNull();
    await expect(service.confirmEmail(oldToken, PASSWORD, 'src')).rejects.toMatchObject({ statusCode: 410 });
    const fresh = tokenOf(mailer.to('new@medical.example').at(-1)!);
    await expect(service.confirmEmail(fresh, 'Owners-Pass-12', 'src')).resolves.toMatchObject({
      message: API_ERR.emailConfirmed,
    });
    expect((await users.getByEmail('new@medical.example'))?.unconfirmedUntil).toBeUndefined();
  });

  it('refuses registrations beyond the per-source limit with 429', async () => {
    const { service } = makeUsers({ registerLimits: { perSource: 2, windowSeconds: 900 } });
    await service.register(newcomer('a@medical.example'), 'src');
    await service.register(newcomer('b@medical.example'), 'src');
    await expect(service.register(newcomer('c@medical.example'), 'src')).rejects.toMatchObject({
      statusCode: 429,
      message: API_ERR.tooManyRegistrations(15),
    });
    await expect(service.register(newcomer('c@medical.example'), 'other')).resolves.toMatchObject({
      email: 'c@medical.example',
    });
  });
});
