import { describe, expect, it } from 'vitest';
import { API_ERR } from '../../../shared/messages';
import { makeUsers, SCRYPT_TIMEOUT_MS } from './users.fixtures';

describe('role decisions', { timeout: SCRYPT_TIMEOUT_MS }, () => {
  it('grants requested roles in one go, audited as the admin and mailed to each user', async () => {
    const { service, account, mailer, audit, current } = makeUsers();
    const admin = await account('ADMIN');
    const a = await account('TECHNICAL_LEADER', { roleStatus: 'REQUESTED' });
    const b = await account('RELIABILITY_ENGINEER', { roleStatus: 'REFUSED' });
    const r = await service.decideRoles(admin, { ids: [a.id, b.id, a.id], decision: 'GRANT' });
    expect(r.map((u) => u.roleStatus)).toEqual(['GRANTED', 'GRANTED']);
    expect((await current(b)).roleStatus).toBe('GRANTED');
    expect(mailer.to(a.email).map((m) => m.subject)).toEqual([
      'Firmware Release Portal: your role Technical Leader was granted',
    ]);
    expect(audit.events.map((e) => [e.subject, e.action, e.actorId])).toEqual([
      [`USER#${a.id}`, 'ROLE_GRANTED', admin.id],
      [`USER#${b.id}`, 'ROLE_GRANTED', admin.id],
    ]);
  });

  it('refuses a role, mailing the user that the account sees its own settings, nothing else', async () => {
    const { service, account, mailer } = makeUsers();
    const admin = await account('ADMIN');
    const a = await account('TECHNICAL_LEADER', { roleStatus: 'REQUESTED' });
    await service.decideRoles(admin, { ids: [a.id], decision: 'REFUSE' });
    expect(mailer.to(a.email)[0]?.text).toContain('see its own settings, nothing else');
  });

  it('keeps the admin out of their own decision, and administrator accounts out of all', async () => {
    const { service, account } = makeUsers();
    const admin = await account('ADMIN');
    const other = await account('ADMIN', { roleStatus: 'REQUESTED' });
    await expect(service.decideRoles(admin, { ids: [admin.id], decision: 'GRANT' })).rejects.toMatchObject({
      statusCode: 403,
      message: API_ERR.ownRoleUndecidable,
    });
    await expect(service.decideRoles(admin, { ids: [other.id], decision: 'GRANT' })).rejects.toMatchObject({
      statusCode: 400,
      message: API_ERR.adminRoleNotDecided,
    });
  });

  it('refuses a decision on a request the admin did not see, or one already taken, changing nothing', async () => {
    const { service, account, current } = makeUsers();
    const admin = await account('ADMIN');
    const a = await account('RELIABILITY_ENGINEER', { roleStatus: 'REQUESTED' });
    const b = await account('TECHNICAL_LEADER');
    await expect(
      service.decideRoles(admin, { ids: [a.id], decision: 'GRANT', roles: { [a.id]: 'TECHNICAL_LEADER' } }),
    ).rejects.toMatchObject({
      statusCode: 409,
      message: `${a.email} now asks for Reliability Engineer, not Technical Leader: reload the list and decide again`,
    });
    await expect(service.decideRoles(admin, { ids: [a.id, b.id], decision: 'GRANT' })).rejects.toMatchObject({
      statusCode: 409,
      message: `${b.email}: the role is already granted`,
    });
    expect(await current(a)).toEqual(a);
  });

  it('answers 404 naming the ids that do not exist', async () => {
    const { service, account } = makeUsers();
    const admin = await account('ADMIN');
    await expect(service.decideRoles(admin, { ids: ['gone'], decision: 'GRANT' })).rejects.toMatchObject({
      statusCode: 404,
      message: 'No user with id gone',
    });
  });
});
