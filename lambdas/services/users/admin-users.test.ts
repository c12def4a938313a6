import { describe, expect, it } from 'vitest';
import { makeUsers, PASSWORD, SCRYPT_TIMEOUT_MS } from '../../testing/users.fixtures';

const SIGNED = { password: PASSWORD, reason: 'left the company' };

describe('admin user deletes', { timeout: SCRYPT_TIMEOUT_MS }, () => {
  it('deletes users for good: the address cannot register again, and it is audited', async () => {
    const { service, account, users, audit } = makeUsers();
    const admin = await account('ADMIN');
    const u = await account('TECHNICAL_LEADER');
    await account('TECHNICAL_LEADER');
    await service.deleteUsers(admin, { ids: [u.id], ...SIGNED });
    expect(await users.getById(u.id)).toBeNull();
    expect(audit.events.map((e) => [e.subject, e.action, e.actorId])).toEqual([
      [`USER#${u.id}`, 'USER_DELETED', admin.id],
    ]);
    expect(audit.events[0]?.details).toMatchObject({
      reason: 'left the company',
      signature: { action: 'deleteAccount', authenticatedBy: 'password' },
    });
    await expect(
      service.register(
        {
          name: 'Again',
          email: u.email,
          password: 'Long-Enough-1',
          userRole: 'TECHNICAL_LEADER',
        },
        'src',
      ),
    ).rejects.toMatchObject({ statusCode: 409 });
  });

  it('refuses a deletion without a signature or without a reason, deleting no one', async () => {
    const { service, account, users, audit } = makeUsers();
    const admin = await account('ADMIN');
    const u = await account('TECHNICAL_LEADER');
    await expect(service.deleteUsers(admin, [u.id])).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/^Deleting an account is an electronic signature/),
    });
    await expect(service.deleteUsers(admin, { ids: [u.id], password: PASSWORD })).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/^reason is required/),
    });
    await expect(
      service.deleteUsers(admin, { ids: [u.id], password: 'Wrong-Password-9', reason: 'left' }),
    ).rejects.toMatchObject({ statusCode: 403 });
    expect(await users.getById(u.id)).not.toBeNull();
    expect(audit.events).toEqual([]);
  });

  it('takes two admins to delete the last holder of a role the approval policy needs', async () => {
    const { service, account, users, audit, mailer } = makeUsers();
    const ada = await account('ADMIN');
    const abe = await account('ADMIN');
    const last = await account('RELIABILITY_ENGINEER');
    const first = await service.deleteUsers(ada, { ids: [last.id], ...SIGNED });
    expect(first.outcome).toBe('PROPOSED');
    expect(await users.getById(last.id)).not.toBeNull();
    await expect(service.deleteUsers(ada, { ids: [last.id], ...SIGNED })).rejects.toMatchObject({
      statusCode: 409,
    });
    expect((await service.deleteUsers(abe, { ids: [last.id], ...SIGNED })).outcome).toBe('DELETED');
    expect(await users.getById(last.id)).toBeNull();
    expect(audit.actions()).toEqual(['USER_DELETION_PROPOSED', 'USER_DELETED']);
    expect(
      mailer
        .to(last.email)
        .map((m) => m.text)
        .join('\n'),
    ).toContain('Reason given: left the company');
  });

  it('refuses deleting oneself, and unknown ids by name', async () => {
    const { service, account } = makeUsers();
    const admin = await account('ADMIN');
    await expect(service.deleteUsers(admin, [admin.id])).rejects.toMatchObject({
      statusCode: 403,
      message: 'You cannot delete your own account',
    });
    await expect(service.deleteUsers(admin, ['x', 'y'])).rejects.toMatchObject({
      statusCode: 404,
      message: 'No user with id x, y',
    });
  });

  it('keeps a user a package waits for, naming the packages, and deletes no one of the selection', async () => {
    const { service, account, pending, users } = makeUsers();
    const admin = await account('ADMIN');
    const free = await account('TECHNICAL_LEADER');
    const awaited = await account('RELIABILITY_ENGINEER');
    pending.wait(awaited.id, 'fw-2');
    pending.wait(awaited.id, 'fw-1');
    await expect(service.deleteUsers(admin, [free.id, awaited.id])).rejects.toMatchObject({
      statusCode: 409,
      message: `Cannot delete: ${awaited.email} is awaited as approver or signer of 'fw-1', 'fw-2'. Delete those packages or let them be decided first.`,
    });
    expect(await users.getById(free.id)).not.toBeNull();
  });

  it('lists users with their confirmation state and no secrets', async () => {
    const { service, account } = makeUsers();
    await account('TECHNICAL_LEADER', { emailConfirmed: false, roleStatus: 'REQUESTED' });
    const [listed] = await service.listUsers();
    expect(listed).toMatchObject({
      emailConfirmed: false,
      roleStatus: 'REQUESTED',
      requestedRole: 'TECHNICAL_LEADER',
    });
    expect(JSON.stringify(listed)).not.toContain('scrypt');
  });
});

describe('admin user list', { timeout: SCRYPT_TIMEOUT_MS }, () => {
  it('leaves out an unconfirmed registration whose 24 hours passed', async () => {
    const { service, account, clock } = makeUsers();
    const kept = await account('TECHNICAL_LEADER');
    const until = new Date(clock.now().getTime() + 24 * 3600_000).toISOString();
    const waiting = await account('TECHNICAL_LEADER', { emailConfirmed: false, unconfirmedUntil: until });
    expect((await service.listUsers()).map((u) => u.id)).toEqual([kept.id, waiting.id]);
    clock.advanceSeconds(24 * 3600);
    expect((await service.listUsers()).map((u) => u.id)).toEqual([kept.id]);
  });
});
