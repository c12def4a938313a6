import { describe, expect, it } from 'vitest';
import { ROLE_GRANT_MEANINGS, ROLE_PROPOSAL_DAYS } from '../../../shared/domain/role-grants';
import {
  SIGNATURE_PASSWORD_REQUIRED,
  SIGNATURE_PASSWORD_WRONG,
} from '../../../shared/domain/signature-meanings';
import { API_ERR } from '../../../shared/messages';
import { makeUsers, PASSWORD, SCRYPT_TIMEOUT_MS } from '../../testing/users.fixtures';

const GRANT = { decision: 'GRANT' as const, password: PASSWORD };
const REFUSE = { decision: 'REFUSE' as const, password: PASSWORD, reason: 'not on the project' };

describe('role decisions', { timeout: SCRYPT_TIMEOUT_MS }, () => {
  it('a grant by one admin is a proposal: audited and signed, mailed to every admin, nothing in effect', async () => {
    const { service, account, mailer, audit, current } = makeUsers();
    const admin = await account('ADMIN');
    const admin2 = await account('ADMIN');
    const a = await account('TECHNICAL_LEADER', { roleStatus: 'REQUESTED' });
    const b = await account('RELIABILITY_ENGINEER', { roleStatus: 'REFUSED' });
    const r = await service.decideRoles(admin, { ...GRANT, ids: [a.id, b.id, a.id] });
    expect(r.outcomes).toEqual({ [a.id]: 'PROPOSED', [b.id]: 'PROPOSED' });
    expect(r.users.map((u) => u.roleStatus)).toEqual(['REQUESTED', 'REFUSED']);
    expect((await current(a)).roleStatus).toBe('REQUESTED');
    expect((await current(a)).roleProposal).toMatchObject({
      role: 'TECHNICAL_LEADER',
      proposedById: admin.id,
    });
    expect(mailer.to(a.email)).toEqual([]);
    for (const who of [admin, admin2])
      expect(mailer.to(who.email).map((m) => m.subject)).toEqual([
        `Role proposal: ${admin.name} proposes Technical Leader for ${a.name}`,
        `Role proposal: ${admin.name} proposes Reliability Engineer for ${b.name}`,
      ]);
    expect(mailer.to(admin2.email)[0]?.text).toContain('/admin/users');
    expect(audit.events.map((e) => [e.subject, e.action, e.actorId])).toEqual([
      [`USER#${a.id}`, 'ROLE_PROPOSED', admin.id],
      [`USER#${b.id}`, 'ROLE_PROPOSED', admin.id],
    ]);
    expect(audit.events[0]?.details?.signature).toMatchObject({
      action: 'proposeRole',
      meaning: ROLE_GRANT_MEANINGS.proposeRole,
      printedName: admin.name,
      role: 'ADMIN',
      authenticatedBy: 'password',
    });
    // the list shows the proposal with its proposer
    const listed = (await service.listUsers()).find((u) => u.id === a.id);
    expect(listed?.roleProposal).toMatchObject({
      role: 'TECHNICAL_LEADER',
      proposedBy: { id: admin.id, name: admin.name, email: admin.email },
    });
  });

  it('a second, different admin confirms it: granted, signed, audited and mailed to the user', async () => {
    const { service, account, mailer, audit, current } = makeUsers();
    const admin = await account('ADMIN');
    const admin2 = await account('ADMIN');
    const a = await account('TECHNICAL_LEADER', { roleStatus: 'REQUESTED' });
    const b = await account('RELIABILITY_ENGINEER', { roleStatus: 'REQUESTED' });
    await service.decideRoles(admin, { ...GRANT, ids: [a.id] });
    // one call: confirms a's proposal, proposes b
    const r = await service.decideRoles(admin2, { ...GRANT, ids: [a.id, b.id] });
    expect(r.outcomes).toEqual({ [a.id]: 'GRANTED', [b.id]: 'PROPOSED' });
    expect(await current(a)).toMatchObject({ roleStatus: 'GRANTED' });
    expect((await current(a)).roleProposal).toBeUndefined();
    expect((await current(b)).roleProposal?.proposedById).toBe(admin2.id);
    expect(mailer.to(a.email).map((m) => m.subject)).toEqual([
      'Firmware Release Portal: your role Technical Leader was granted',
    ]);
    const granted = audit.events.find((e) => e.action === 'ROLE_GRANTED');
    expect(granted).toMatchObject({ actorId: admin2.id, subject: `USER#${a.id}` });
    expect(granted?.meaning).toBe(
      `grants the role Technical Leader to ${a.email}, confirming the proposal of ${admin.name} (${admin.email})`,
    );
    expect(granted?.details).toMatchObject({
      proposedBy: admin.id,
      signature: {
        action: 'confirmRole',
        meaning: ROLE_GRANT_MEANINGS.confirmRole,
        printedName: admin2.name,
      },
    });
    expect((await service.listUsers()).find((u) => u.id === a.id)).not.toHaveProperty('roleProposal');
  });

  it("refuses an admin's confirmation of their own proposal, naming it, and changes nothing", async () => {
    const { service, account, current, audit } = makeUsers();
    const admin = await account('ADMIN');
    const a = await account('TECHNICAL_LEADER', { roleStatus: 'REQUESTED' });
    const b = await account('RELIABILITY_ENGINEER', { roleStatus: 'REQUESTED' });
    await service.decideRoles(admin, { ...GRANT, ids: [a.id] });
    const before = await current(b);
    await expect(service.decideRoles(admin, { ...GRANT, ids: [a.id, b.id] })).rejects.toMatchObject({
      statusCode: 403,
      message: `${a.email}: you proposed the role Technical Leader; a second administrator must confirm it`,
    });
    expect(await current(b)).toEqual(before);
    expect((await current(a)).roleStatus).toBe('REQUESTED');
    expect(audit.actions()).toEqual(['ROLE_PROPOSED']);
  });

  it(`lets a proposal lapse after ${ROLE_PROPOSAL_DAYS} days: a later grant proposes again`, async () => {
    const { service, account, clock, current } = makeUsers();
    const admin = await account('ADMIN');
    const admin2 = await account('ADMIN');
    const a = await account('TECHNICAL_LEADER', { roleStatus: 'REQUESTED' });
    await service.decideRoles(admin, { ...GRANT, ids: [a.id] });
    clock.advanceSeconds(ROLE_PROPOSAL_DAYS * 24 * 3600);
    expect((await service.listUsers()).find((u) => u.id === a.id)).not.toHaveProperty('roleProposal');
    const r = await service.decideRoles(admin2, { ...GRANT, ids: [a.id] });
    expect(r.outcomes).toEqual({ [a.id]: 'PROPOSED' });
    expect(await current(a)).toMatchObject({
      roleStatus: 'REQUESTED',
      roleProposal: { proposedById: admin2.id },
    });
  });

  it('needs the right password for a grant; a wrong one answers 403 and changes nothing', async () => {
    const { service, account, current, audit } = makeUsers();
    const admin = await account('ADMIN');
    const a = await account('TECHNICAL_LEADER', { roleStatus: 'REQUESTED' });
    await expect(service.decideRoles(admin, { decision: 'GRANT', ids: [a.id] })).rejects.toMatchObject({
      statusCode: 400,
      message: SIGNATURE_PASSWORD_REQUIRED,
    });
    await expect(
      service.decideRoles(admin, { decision: 'GRANT', ids: [a.id], password: 'Wrong-Password-9' }),
    ).rejects.toMatchObject({ statusCode: 403, message: SIGNATURE_PASSWORD_WRONG });
    expect(await current(a)).toEqual(a);
    expect(audit.actions()).toEqual([]);
  });

  it('refuses a role at once, by one admin, dropping a pending proposal and mailing the user', async () => {
    const { service, account, mailer, current, audit } = makeUsers();
    const admin = await account('ADMIN');
    const admin2 = await account('ADMIN');
    const a = await account('TECHNICAL_LEADER', { roleStatus: 'REQUESTED' });
    await service.decideRoles(admin, { ...GRANT, ids: [a.id] });
    const r = await service.decideRoles(admin2, { ...REFUSE, ids: [a.id] });
    expect(r.outcomes).toEqual({ [a.id]: 'REFUSED' });
    expect(await current(a)).toMatchObject({ roleStatus: 'REFUSED' });
    expect((await current(a)).roleProposal).toBeUndefined();
    expect(mailer.to(a.email)[0]?.text).toContain('see its own settings, nothing else');
    expect(mailer.to(a.email)[0]?.text).toContain('Reason given: not on the project');
    expect(audit.actions()).toEqual(['ROLE_PROPOSED', 'ROLE_REFUSED']);
  });

  it('revokes a granted role at once, by one signing admin, while another holds the role', async () => {
    const { service, account, current, audit } = makeUsers();
    const admin = await account('ADMIN');
    const a = await account('SW_FW_RELEASE_ENGINEER');
    await account('SW_FW_RELEASE_ENGINEER');
    const r = await service.decideRoles(admin, { ...REFUSE, ids: [a.id] });
    expect(r.outcomes).toEqual({ [a.id]: 'REFUSED' });
    expect((await current(a)).roleStatus).toBe('REFUSED');
    expect(audit.events[0]?.details).toMatchObject({
      reason: 'not on the project',
      signature: { action: 'refuseRole', authenticatedBy: 'password' },
    });
  });

  it('refuses a refusal with a wrong password, changing nothing', async () => {
    const { service, account, current, audit } = makeUsers();
    const admin = await account('ADMIN');
    const a = await account('TECHNICAL_LEADER', { roleStatus: 'REQUESTED' });
    await expect(
      service.decideRoles(admin, { ...REFUSE, ids: [a.id], password: 'Wrong-Password-9' }),
    ).rejects.toMatchObject({ statusCode: 403 });
    expect(await current(a)).toEqual(a);
    expect(audit.actions()).toEqual([]);
  });

  it('takes two admins to revoke the last holder of a role the policy needs', async () => {
    const { service, account, current, audit, mailer } = makeUsers();
    const ada = await account('ADMIN');
    const abe = await account('ADMIN');
    const a = await account('SW_FW_RELEASE_ENGINEER');
    const first = await service.decideRoles(ada, { ...REFUSE, ids: [a.id] });
    expect(first.outcomes).toEqual({ [a.id]: 'REVOCATION_PROPOSED' });
    expect((await current(a)).roleStatus).toBe('GRANTED');
    expect((await service.listUsers()).find((u) => u.id === a.id)?.revocationProposal).toMatchObject({
      role: 'SW_FW_RELEASE_ENGINEER',
      proposedBy: { id: ada.id },
      reason: 'not on the project',
    });
    expect(mailer.to(abe.email).at(-1)?.subject).toMatch(/revocation of .* proposed/);
    await expect(service.decideRoles(ada, { ...REFUSE, ids: [a.id] })).rejects.toMatchObject({
      statusCode: 409,
    });
    const second = await service.decideRoles(abe, { ...REFUSE, ids: [a.id], reason: 'agreed' });
    expect(second.outcomes).toEqual({ [a.id]: 'REFUSED' });
    expect(await current(a)).toMatchObject({ roleStatus: 'REFUSED' });
    expect((await current(a)).revocationProposal).toBeUndefined();
    expect(audit.actions()).toEqual(['ROLE_REVOCATION_PROPOSED', 'ROLE_REFUSED']);
    expect(audit.events[1]?.details).toMatchObject({
      proposedBy: ada.id,
      proposalReason: 'not on the project',
    });
  });

  it('keeps the admin out of their own decision, and administrator accounts out of all', async () => {
    const { service, account } = makeUsers();
    const admin = await account('ADMIN');
    const other = await account('ADMIN', { roleStatus: 'REQUESTED' });
    await expect(service.decideRoles(admin, { ...GRANT, ids: [admin.id] })).rejects.toMatchObject({
      statusCode: 403,
      message: API_ERR.ownRoleUndecidable,
    });
    await expect(service.decideRoles(admin, { ...GRANT, ids: [other.id] })).rejects.toMatchObject({
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
      service.decideRoles(admin, { ...GRANT, ids: [a.id], roles: { [a.id]: 'TECHNICAL_LEADER' } }),
    ).rejects.toMatchObject({
      statusCode: 409,
      message: `${a.email} now asks for Reliability Engineer, not Technical Leader: reload the list and decide again`,
    });
    await expect(service.decideRoles(admin, { ...GRANT, ids: [a.id, b.id] })).rejects.toMatchObject({
      statusCode: 409,
      message: `${b.email}: the role is already granted`,
    });
    expect(await current(a)).toEqual(a);
  });

  it('lists what waits for an admin first: proposals, then requests, then the rest', async () => {
    const { service, account } = makeUsers();
    const admin = await account('ADMIN');
    const granted = await account('TECHNICAL_LEADER');
    const requested = await account('RELIABILITY_ENGINEER', { roleStatus: 'REQUESTED' });
    const proposed = await account('SW_FW_RELEASE_ENGINEER', { roleStatus: 'REQUESTED' });
    await service.decideRoles(admin, { ...GRANT, ids: [proposed.id] });
    const ids = (await service.listUsers()).map((u) => u.id);
    expect(ids.slice(0, 2)).toEqual([proposed.id, requested.id]);
    expect(ids.slice(2).sort()).toEqual([admin.id, granted.id].sort());
  });

  it('drops a proposal when the user asks for another role: a grant of the new one starts over', async () => {
    const { service, account, current } = makeUsers();
    const admin = await account('ADMIN');
    const admin2 = await account('ADMIN');
    const a = await account('TECHNICAL_LEADER', { roleStatus: 'REQUESTED' });
    await service.decideRoles(admin, { ...GRANT, ids: [a.id] });
    await service.updateAccount(await current(a), {
      name: a.name,
      email: a.email,
      userRole: 'SW_FW_RELEASE_ENGINEER',
    });
    expect((await current(a)).roleProposal).toBeUndefined();
    const r = await service.decideRoles(admin2, { ...GRANT, ids: [a.id] });
    expect(r.outcomes).toEqual({ [a.id]: 'PROPOSED' });
  });

  it('answers 404 naming the ids that do not exist', async () => {
    const { service, account } = makeUsers();
    const admin = await account('ADMIN');
    await expect(service.decideRoles(admin, { ...GRANT, ids: ['gone'] })).rejects.toMatchObject({
      statusCode: 404,
      message: 'No user with id gone',
    });
  });
});
