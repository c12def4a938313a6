import { describe, expect, it } from 'vitest';
import { API_ERR } from '../../../shared/messages';
import { makeUsers, PASSWORD, SCRYPT_TIMEOUT_MS, session } from '../../testing/users.fixtures';

const IP = '203.0.113.7';

describe('sign-in', { timeout: SCRYPT_TIMEOUT_MS }, () => {
  it('answers a wrong password and an unknown address alike, and counts the failure', async () => {
    const { service, account, users } = makeUsers();
    const u = await account('TECHNICAL_LEADER');
    await expect(service.login(u.email, 'Wrong-Password-1', IP)).rejects.toMatchObject({
      statusCode: 401,
      message: API_ERR.wrongPassword,
    });
    await expect(service.login('nobody@medical.example', PASSWORD, IP)).rejects.toMatchObject({
      statusCode: 401,
      message: API_ERR.wrongPassword,
    });
    expect((await users.getThrottle(`login#${u.email}#${IP}`)).failures).toBe(1);
    expect((await users.getThrottle(`source#${IP}`)).failures).toBe(2);
  });

  it('locks the (account, source) pair after five failures, and lets the owner in once the lock has passed', async () => {
    const { service, account, clock, users } = makeUsers();
    const u = await account('TECHNICAL_LEADER');
    // the failures are counted as the adapter would after five wrong passwords (scrypt is slow)
    for (let i = 0; i < 5; i++)
      await users.recordFailure(`login#${u.email}#${IP}`, clock.now().toISOString(), 1e10);
    await expect(service.login(u.email, PASSWORD, IP)).rejects.toMatchObject({
      statusCode: 429,
      message: API_ERR.tooManyAttempts(30),
      extra: { retryAfterSeconds: 30 },
    });
    // another source is not locked out by the stranger's guesses
    await expect(service.login(u.email, PASSWORD, '198.51.100.1')).resolves.toMatchObject({
      user: { id: u.id },
    });
    clock.advanceSeconds(30);
    const ok = session(await service.login(u.email, PASSWORD, IP));
    expect(ok.user.email).toBe(u.email);
    // forgiven: the pair's count starts again
    expect((await users.getThrottle(`login#${u.email}#${IP}`)).failures).toBe(0);
  });

  it('refuses a source with too many failures over any accounts until its window has passed', async () => {
    const { service, account, clock, users } = makeUsers({
      maxFailuresPerSource: 2,
      sourceWindowSeconds: 600,
    });
    const u = await account('TECHNICAL_LEADER');
    const at = clock.now().toISOString();
    await users.recordFailure(`source#${IP}`, at, 1e10);
    await users.recordFailure(`source#${IP}`, at, 1e10);
    clock.advanceSeconds(100);
    await expect(service.login(u.email, PASSWORD, IP)).rejects.toMatchObject({
      statusCode: 429,
      extra: { retryAfterSeconds: 500 },
    });
  });

  it('tells an unconfirmed address only after the right password', async () => {
    const { service, account } = makeUsers();
    const u = await account('TECHNICAL_LEADER', { emailConfirmed: false, roleStatus: 'REQUESTED' });
    await expect(service.login(u.email, 'Wrong-Password-1', IP)).rejects.toMatchObject({ statusCode: 401 });
    await expect(service.login(u.email, PASSWORD, IP)).rejects.toMatchObject({
      statusCode: 403,
      message: API_ERR.emailNotConfirmed,
      extra: { emailNotConfirmed: true },
    });
  });

  it('signs in with the address in any case and spaces, and says when the password must be replaced', async () => {
    const { service, account } = makeUsers();
    const u = await account('ADMIN', { mustChangePassword: true });
    const r = session(await service.login(`  ${u.email.toUpperCase()} `, PASSWORD, IP));
    expect(r.mustChangePassword).toBe(true);
    expect((await service.authenticate(r.token)).id).toBe(u.id);
  });

  it('ends every session at logout: the token is refused afterwards', async () => {
    const { service, account, current } = makeUsers();
    const u = await account('TECHNICAL_LEADER');
    const { token } = session(await service.login(u.email, PASSWORD, IP));
    await service.logout(await service.authenticate(token));
    await expect(service.authenticate(token)).rejects.toMatchObject({
      statusCode: 401,
      message: API_ERR.invalidToken,
    });
    expect((await current(u)).tokenVersion).toBe(2);
  });

  it('refuses a missing, forged or deleted account token', async () => {
    const { service, account, tokens, clock, users } = makeUsers();
    const u = await account('TECHNICAL_LEADER');
    await expect(service.authenticate(null)).rejects.toMatchObject({ message: API_ERR.missingToken });
    await expect(service.authenticate('not.a.token')).rejects.toMatchObject({
      message: API_ERR.invalidToken,
    });
    const token = await tokens.issue({ sub: u.id, tv: 1 }, clock.now());
    await users.delete(u, clock.now().toISOString());
    // the holder of a genuine token hears why it ends: the account was deleted
    await expect(service.authenticate(token)).rejects.toMatchObject({
      statusCode: 401,
      message: API_ERR.accountDeleted,
    });
  });
});
