import { describe, expect, it } from 'vitest';
import { API_ERR, MSG } from '../../../shared/messages';
import { makeUsers, PASSWORD, SCRYPT_TIMEOUT_MS, tokenOf } from '../../testing/users.fixtures';

describe('account settings', { timeout: SCRYPT_TIMEOUT_MS }, () => {
  it('keeps the old address as the login until the new one is confirmed by its link', async () => {
    const { service, account, mailer, users, audit } = makeUsers();
    const u = await account('TECHNICAL_LEADER');
    const r = await service.updateAccount(u, {
      name: u.name,
      email: 'moved@medical.example',
      userRole: u.userRole,
    });
    expect(r).toMatchObject({ email: u.email, pendingEmail: 'moved@medical.example' });
    expect((await users.getByEmail(u.email))?.id).toBe(u.id);
    const token = tokenOf(mailer.to('moved@medical.example')[0]!);
    await expect(service.confirmEmail(token, PASSWORD, 'src')).resolves.toEqual({
      message: API_ERR.emailChangeConfirmed,
      email: 'moved@medical.example',
    });
    expect((await users.getByEmail('moved@medical.example'))?.id).toBe(u.id);
    // the old address is free again
    expect(await users.getByEmail(u.email)).toBeNull();
    expect(audit.actions()).toEqual(['ACCOUNT_UPDATED', 'EMAIL_CHANGE_REQUESTED', 'EMAIL_CHANGED']);
  });

  it('refuses an address another account holds', async () => {
    const { service, account } = makeUsers();
    const u = await account('TECHNICAL_LEADER');
    const other = await account('TECHNICAL_LEADER');
    await expect(
      service.updateAccount(u, { name: u.name, email: other.email, userRole: u.userRole }),
    ).rejects.toMatchObject({ statusCode: 409, message: MSG.registerConflict });
  });

  it('turns a new role into a request at once, telling the admins', async () => {
    const { service, account, mailer, current } = makeUsers();
    const admin = await account('ADMIN');
    const u = await account('TECHNICAL_LEADER');
    const r = await service.updateAccount(u, {
      name: u.name,
      email: u.email,
      userRole: 'RELIABILITY_ENGINEER',
    });
    expect(r).toMatchObject({ userRole: 'RELIABILITY_ENGINEER', roleStatus: 'REQUESTED' });
    expect((await current(u)).roleStatus).toBe('REQUESTED');
    expect(mailer.to(admin.email)).toHaveLength(1);
  });

  it('refuses a role change while a package waits for the user, changing nothing', async () => {
    const { service, account, pending, current } = makeUsers();
    const u = await account('TECHNICAL_LEADER');
    pending.wait(u.id, 'fw-1.2');
    await expect(
      service.updateAccount(u, { name: u.name, email: u.email, userRole: 'RELIABILITY_ENGINEER' }),
    ).rejects.toMatchObject({
      statusCode: 409,
      message:
        "You cannot change your role while 'fw-1.2' waits for your decision as approver or signer. Decide first, or ask an administrator.",
    });
    expect(await current(u)).toEqual(u);
  });

  it('allows three role requests per account in 15 minutes', async () => {
    const { service, account, current } = makeUsers();
    const u = await account('TECHNICAL_LEADER');
    const roles = [
      'RELIABILITY_ENGINEER',
      'TECHNICAL_LEADER',
      'RELIABILITY_ENGINEER',
      'TECHNICAL_LEADER',
    ] as const;
    for (const role of roles.slice(0, 3))
      await service.updateAccount(await current(u), { name: u.name, email: u.email, userRole: role });
    await expect(
      service.updateAccount(await current(u), { name: u.name, email: u.email, userRole: roles[3] }),
    ).rejects.toMatchObject({ statusCode: 429, message: API_ERR.tooManyRoleRequests(3, 15, 15) });
  });

  it('gives the role request back when the email part of the change is refused', async () => {
    const { service, account, users } = makeUsers();
    const u = await account('TECHNICAL_LEADER');
    // three links to the new address already went out in this window
    for (let i = 0; i < 3; i++) await service.resendConfirmation('moved@medical.example');
    await expect(
      service.updateAccount(u, {
        name: u.name,
        email: 'moved@medical.example',
        userRole: 'RELIABILITY_ENGINEER',
      }),
    ).rejects.toMatchObject({ statusCode: 429 });
    // the three requests of the window are all still there
    for (let i = 0; i < 3; i++)
      expect(
        (await users.takeQuota(`role-request#${u.id}`, 3, 900, new Date('2026-11-21T12:00:00Z'))).ok,
      ).toBe(true);
  });

  it('keeps administrators in their role and others out of it', async () => {
    const { service, account } = makeUsers();
    const admin = await account('ADMIN');
    const u = await account('TECHNICAL_LEADER');
    await expect(
      service.updateAccount(admin, { name: admin.name, email: admin.email, userRole: 'TECHNICAL_LEADER' }),
    ).rejects.toMatchObject({ statusCode: 403, message: API_ERR.ownRoleUnchangeable });
    await expect(
      service.updateAccount(u, { name: u.name, email: u.email, userRole: 'ADMIN' }),
    ).rejects.toMatchObject({ statusCode: 400, message: API_ERR.adminRoleNotAllowed });
  });
});
