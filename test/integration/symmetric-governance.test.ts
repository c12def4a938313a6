import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser } from '../../shared/api/contracts/user';
import { GOVERNANCE_TEXT } from '../../shared/domain/role-revocations';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { SIGNATURE_PASSWORD_REQUIRED } from '../../shared/domain/signature-meanings';
import { api, jsonText, localDynamo, localTable, mailMatching, mails } from '../support/api';
import { type DirectUser, directUsers } from '../support/direct-users';

/**
 * Decision 357 over HTTP: refusing or revoking a role and deleting an account are signatures with a
 * reason. One signing admin suffices while another person holds the role; the last holder of a role the
 * approval policy needs takes a second admin (propose, then confirm). The reason is in the audit event and
 * in the mail to the person, sent once.
 */
let ada: DirectUser;
let abe: DirectUser;
beforeAll(async () => {
  [ada, abe] = (await directUsers(2, 'ADMIN', 'Governing admin')) as [DirectUser, DirectUser];
}, 120_000);

const roles = (token: string, body: Record<string, unknown>) =>
  api<{ outcomes: Record<string, string>; errorMessage?: string }>('/admin/users/roles', {
    method: 'POST',
    token,
    body,
  });
const refuse = (token: string, ids: string[], reason = 'Moved to another project') =>
  roles(token, { refuse: ids, password: SEED_PASSWORD, reason });

async function listed(id: string): Promise<PublicUser | undefined> {
  const r = await api<{ users: string }>('/admin/users', { token: ada.token });
  return jsonText<PublicUser[]>(r.body.users).find((x) => x.id === id);
}

async function auditOf(userId: string) {
  const r = await (await localDynamo()).send(
    new QueryCommand({
      TableName: localTable('audit'),
      KeyConditionExpression: 'pk = :p AND seq > :z',
      ExpressionAttributeValues: { ':p': `USER#${userId}`, ':z': 0 },
    }),
  );
  return (r.Items ?? []) as { action: string; actorId: string; details?: Record<string, unknown> }[];
}

describe('refusing and revoking a role is a signed decision with a reason', () => {
  it('asks for the reason and the proof, refuses a wrong password, and changes nothing until both are right', async () => {
    const [pat] = (await directUsers(1, 'RELIABILITY_ENGINEER', 'Requesting', { granted: false })) as [
      DirectUser,
    ];
    const noReason = await roles(ada.token, { refuse: [pat.id], password: SEED_PASSWORD });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errorMessage).toBe(GOVERNANCE_TEXT.reasonRequired);
    const blank = await roles(ada.token, { refuse: [pat.id], password: SEED_PASSWORD, reason: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.errorMessage).toBe(GOVERNANCE_TEXT.reasonRequired);
    const noProof = await roles(ada.token, { refuse: [pat.id], reason: 'x', password: undefined });
    expect(noProof.status).toBe(400);
    expect(noProof.body.errorMessage).toBe(SIGNATURE_PASSWORD_REQUIRED);
    const wrong = await roles(ada.token, { refuse: [pat.id], reason: 'x', password: 'Wrong-Password-9' });
    expect(wrong.status).toBe(403);
    expect((await listed(pat.id))?.roleStatus).toBe('REQUESTED');
    expect(await auditOf(pat.id)).toEqual([]);

    const done = await refuse(ada.token, [pat.id], 'Not on the release team');
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.outcomes).toEqual({ [pat.id]: 'REFUSED' });
    const [event] = await auditOf(pat.id);
    expect(event).toMatchObject({
      action: 'ROLE_REFUSED',
      actorId: ada.id,
      details: {
        reason: 'Not on the release team',
        signature: { action: 'refuseRole', authenticatedBy: 'password' },
      },
    });
    const mail = await mailMatching(pat.email, (m) => /was refused/.test(m.subject));
    expect(mail?.text).toContain('Reason given: Not on the release team');
    expect((await mails(pat.email)).filter((m) => /was refused/.test(m.subject))).toHaveLength(1);
  });

  it('lets one admin revoke a role another person still holds', async () => {
    const [one] = (await directUsers(2, 'TECHNICAL_LEADER', 'Leader')) as [DirectUser, DirectUser];
    const r = await refuse(ada.token, [one.id]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.outcomes).toEqual({ [one.id]: 'REFUSED' });
    expect((await listed(one.id))?.roleStatus).toBe('REFUSED');
  });

  it('takes a second admin to revoke the last holders of a role: proposed, then confirmed by another admin', async () => {
    // every holder of the role in this stack at once: the call would leave no one holding it
    const [mine] = (await directUsers(1, 'DESIGN_ENGINEER_TEST', 'Last tester')) as [DirectUser];
    const all = await api<{ users: string }>('/admin/users', { token: ada.token });
    const holders = jsonText<PublicUser[]>(all.body.users)
      .filter(
        (x) =>
          x.userRole === 'DESIGN_ENGINEER_TEST' && x.roleStatus === 'GRANTED' && x.emailConfirmed !== false,
      )
      .map((x) => x.id);
    expect(holders).toContain(mine.id);
    const proposed = await refuse(ada.token, holders, 'Test bench retired');
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
    expect(Object.values(proposed.body.outcomes)).toEqual(holders.map(() => 'REVOCATION_PROPOSED'));
    expect((await listed(mine.id))?.roleStatus).toBe('GRANTED');
    expect((await listed(mine.id))?.revocationProposal).toMatchObject({
      proposedBy: { id: ada.id },
      reason: 'Test bench retired',
    });
    expect((await refuse(ada.token, [mine.id])).status).toBe(409);

    // the second admin confirms only the account this test made: the seeded holders keep their role
    const confirmed = await refuse(abe.token, [mine.id], 'Agreed: bench retired');
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.outcomes).toEqual({ [mine.id]: 'REFUSED' });
    expect((await listed(mine.id))?.roleStatus).toBe('REFUSED');
    const trail = await auditOf(mine.id);
    expect(trail.map((e) => e.action).slice(-2)).toEqual(['ROLE_REVOCATION_PROPOSED', 'ROLE_REFUSED']);
    expect(trail.at(-1)?.details).toMatchObject({ proposedBy: ada.id, proposalReason: 'Test bench retired' });
    const mail = await mailMatching(mine.email, (m) => /was revoked/.test(m.subject));
    expect(mail?.text).toContain('Reason given: Agreed: bench retired');
  });
});

describe('deleting an account is a signed decision with a reason', () => {
  it('refuses the unsigned list and the missing reason, then deletes with both and tells the person why', async () => {
    const [gone] = (await directUsers(2, 'RELIABILITY_ENGINEER', 'Leaving')) as [DirectUser, DirectUser];
    const del = (body: unknown) => api('/admin/users', { method: 'DELETE', token: ada.token, body });
    const unsigned = await del({ ids: [gone.id], password: undefined });
    expect(unsigned.status).toBe(400);
    expect(unsigned.body.errorMessage).toBe(GOVERNANCE_TEXT.signatureNeeded);
    const noReason = await del({ ids: [gone.id], password: SEED_PASSWORD });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errorMessage).toBe(GOVERNANCE_TEXT.deletionReasonRequired);
    expect((await del({ ids: [gone.id], password: 'Wrong-Password-9', reason: 'x' })).status).toBe(403);
    expect(await listed(gone.id)).toBeDefined();

    const ok = await del({ ids: [gone.id], password: SEED_PASSWORD, reason: 'Left the company' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await listed(gone.id)).toBeUndefined();
    expect((await auditOf(gone.id)).at(-1)).toMatchObject({
      action: 'USER_DELETED',
      details: { reason: 'Left the company', signature: { action: 'deleteAccount' } },
    });
    const mail = await mailMatching(gone.email, (m) => /deleted/.test(m.subject));
    expect(mail?.text).toContain('Reason given: Left the company');
  });
});
