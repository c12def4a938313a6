import { describe, expect, it } from 'vitest';
import { API_ERR } from '../../../shared/messages';
import { makeUsers, PASSWORD, SCRYPT_TIMEOUT_MS, session } from '../../testing/users.fixtures';

const IP = '203.0.113.7';

describe('changing the password', { timeout: SCRYPT_TIMEOUT_MS }, () => {
  it('refuses a wrong old password with 403, counts it as a failed sign-in and changes nothing', async () => {
    const { service, account, current, users } = makeUsers();
    const u = await account('TECHNICAL_LEADER');
    await expect(
      service.changePassword(u, { oldPassword: 'Wrong-Password-1', newPassword: 'New-Password-12' }, IP),
    ).rejects.toMatchObject({ statusCode: 403, message: API_ERR.oldPasswordWrong });
    expect(await current(u)).toEqual(u);
    expect((await users.getThrottle(`login#${u.email}#${IP}`)).failures).toBe(1);
  });

  it('ends the earlier sessions and hands back a fresh token for this one', async () => {
    const { service, account, audit } = makeUsers();
    const u = await account('ADMIN', { mustChangePassword: true });
    const old = session(await service.login(u.email, PASSWORD, IP)).token;
    const { token } = await service.changePassword(
      u,
      { oldPassword: PASSWORD, newPassword: 'New-Password-12' },
      IP,
    );
    await expect(service.authenticate(old)).rejects.toMatchObject({ statusCode: 401 });
    const me = await service.authenticate(token);
    expect(me.mustChangePassword).toBeUndefined();
    expect(audit.actions()).toEqual(['SIGNED_IN', 'PASSWORD_CHANGED']);
  });
});

describe('password reset', { timeout: SCRYPT_TIMEOUT_MS }, () => {
  it('answers an unknown address 404 after counting it for the source', async () => {
    const { service, mailer } = makeUsers({
      resetLimits: { perAddress: 3, perSource: 1, windowSeconds: 900 },
    });
    await expect(service.resetPassword('nobody@medical.example', IP)).rejects.toMatchObject({
      statusCode: 404,
      message: API_ERR.userNotFound,
    });
    await expect(service.resetPassword('nobody@medical.example', IP)).rejects.toMatchObject({
      statusCode: 429,
      message: API_ERR.tooManyResetsFromSource(15),
    });
    expect(mailer.sent).toEqual([]);
  });

  it('mails a temporary password that becomes the password when used, ending older sessions', async () => {
    const { service, account, mailer, current, audit } = makeUsers();
    const u = await account('TECHNICAL_LEADER');
    const old = session(await service.login(u.email, PASSWORD, IP)).token;
    await service.resetPassword(u.email, IP);
    const [mail] = mailer.to(u.email);
    expect(mail?.subject).toBe('Firmware Release Portal: your temporary password');
    const temp = /Temporary password: (\S+)/.exec(mail!.text)![1]!;
    const signedIn = session(await service.login(u.email, temp, IP));
    // the temporary password must be changed first, and never signs a decision
    expect(signedIn.mustChangePassword).toBe(true);
    const after = await current(u);
    expect(after.tempPasswordHash).toBeUndefined();
    expect(after.mustChangePassword).toBe(true);
    expect(after.tokenVersion).toBe(u.tokenVersion + 1);
    await expect(service.authenticate(old)).rejects.toMatchObject({ statusCode: 401 });
    await expect(service.confirmSignature(after, { password: temp }, IP)).rejects.toMatchObject({
      statusCode: 403,
      message: API_ERR.mustChangePassword,
    });
    // every sign-in is recorded (decision 320): the earlier one with the password, then the temporary one's
    expect(audit.actions()).toEqual(['SIGNED_IN', 'PASSWORD_RESET_REQUESTED', 'PASSWORD_RESET_USED']);
    // once changed, the new password signs and the flag is gone
    await service.changePassword(after, { oldPassword: temp, newPassword: 'Brand-New-Pass-1' }, IP);
    const changed = await current(u);
    expect(changed.mustChangePassword).toBeUndefined();
    await expect(service.confirmSignature(changed, { password: 'Brand-New-Pass-1' }, IP)).resolves.toBe(
      'password',
    );
    expect(session(await service.login(u.email, 'Brand-New-Pass-1', IP)).mustChangePassword).toBe(false);
  });

  it('refuses a fourth reset mail to one address within the window', async () => {
    const { service, account, mailer } = makeUsers();
    const u = await account('TECHNICAL_LEADER');
    for (let i = 0; i < 3; i++) await service.resetPassword(u.email, IP);
    await expect(service.resetPassword(u.email, IP)).rejects.toMatchObject({
      statusCode: 429,
      message: API_ERR.tooManyResetsForAddress(3, 15, 15),
    });
    expect(mailer.to(u.email)).toHaveLength(3);
  });

  it('stores every mailed password when resets race: none answers 409 after its mail went out', async () => {
    const { service, account, mailer, current, audit } = makeUsers();
    const u = await account('TECHNICAL_LEADER');
    // all three read the account, mail, then write it: two lose the first write and store on the fresh one
    await Promise.all([1, 2, 3].map(() => service.resetPassword(u.email, IP)));
    expect(mailer.to(u.email)).toHaveLength(3);
    expect(audit.actions()).toEqual(Array(3).fill('PASSWORD_RESET_REQUESTED'));
    expect((await current(u)).version).toBe(u.version + 3);
    const temps = mailer.to(u.email).map((m) => /Temporary password: (\S+)/.exec(m.text)![1]!);
    const signs = await Promise.all(
      temps.map((t) =>
        service.login(u.email, t, IP).then(
          () => true,
          () => false,
        ),
      ),
    );
    // the password of whichever request wrote last works; the other two were replaced, as asked
    expect(signs.filter(Boolean)).toHaveLength(1);
  });

  it('puts the record back and does not count the address when the mail cannot go out', async () => {
    const { service, account, mailer, current, audit } = makeUsers({
      resetLimits: { perAddress: 1, perSource: 20, windowSeconds: 900 },
    });
    const u = await account('TECHNICAL_LEADER');
    mailer.failing = true;
    await expect(service.resetPassword(u.email, IP)).rejects.toThrow('SES is down');
    expect(await current(u)).toEqual(u);
    expect(audit.events).toEqual([]);
    mailer.failing = false;
    // the one reset this address may have in the window is still there
    await service.resetPassword(u.email, IP);
    expect(mailer.to(u.email)).toHaveLength(1);
  });
});
