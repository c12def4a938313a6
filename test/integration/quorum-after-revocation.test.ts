import { beforeAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import type { NonAdminRole } from '../../shared/domain/roles';
import { api } from '../support/api';
import { type DirectUser, directUsers } from '../support/direct-users';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import { grantRoles } from '../support/identity';
import {
  approveAllButLast,
  chosenApprovers,
  lastApprover,
  packageNow,
  seededSigner,
} from '../support/package-flow';

/**
 * One admin cannot shrink a quorum (decision 335): a waiting package keeps the approvers it was notified
 * to. An admin who refuses (revokes) the role of one of them stalls the package — the others' approvals
 * do not complete the round, the revoked person cannot decide — and only a grant by two admins lets that
 * person decide again. The round's size never drops.
 */
type Users = Awaited<ReturnType<typeof seededUsers>>;
let u: Users;
let role: NonAdminRole;
let decider: DirectUser;
let pkg: Package;

beforeAll(async () => {
  u = await seededUsers();
  // the revoked approver holds the role whose approval would decide the round (the last in the policy's order)
  role = lastApprover(u, 'DEV_SIGNED').role;
  [decider] = (await directUsers(1, role, 'Revoked Approver')) as [DirectUser];
  const resource = await uploadPatch(u.designDev.token, 'dev');
  pkg = await createPackage(u.designDev.token, resource.id, 'DEV_SIGNED', `quorum-kept-${Date.now()}`);
  const dccId = await createDcc(u.designDev.token);
  const att = await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token });
  expect(att.status).toBe(200);
  const n = await api(`/packages/${pkg.id}/notify-approvers`, {
    method: 'POST',
    token: u.designDev.token,
    body: {
      approvers: chosenApprovers(u, 'DEV_SIGNED', 'approval', { [role]: decider }),
      signer: seededSigner(u).id,
    },
  });
  expect(n.status, JSON.stringify(n.body)).toBe(200);
}, 120_000);

describe('a waiting package keeps the approvers it was notified to', () => {
  it('a revocation by one admin stalls the round instead of shrinking it; two admins let the approver decide again', async () => {
    const notified = await packageNow(pkg, u.designDev.token);
    const size = notified?.approvers.length ?? 0;
    expect(notified?.approvers.map((a) => a.user.id)).toContain(decider.id);

    const refused = await api('/admin/users/roles', {
      method: 'POST',
      token: u.admin.token,
      body: { refuse: [decider.id] },
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(200);

    // every other approver approves: the round is not complete without the revoked one
    await approveAllButLast(u, pkg);
    const stalled = await packageNow(pkg, u.designDev.token);
    expect(stalled?.status).toBe('PENDING_APPROVAL');
    expect(stalled?.approvers).toHaveLength(size);
    expect(stalled?.approvers.find((a) => a.user.id === decider.id)?.approved).toBe(false);

    // the revoked approver cannot decide while the role is refused
    const meanwhile = await api<{ errorMessage?: string }>(`/packages/${pkg.id}/approve`, {
      method: 'POST',
      token: decider.token,
    });
    expect(meanwhile.status).toBe(403);
    expect(meanwhile.body.errorMessage).toMatch(/refused by an administrator/);
    expect((await packageNow(pkg, u.designDev.token))?.status).toBe('PENDING_APPROVAL');

    // two admins grant the role again: the approver the package was notified to decides, and the round ends
    await grantRoles([decider.id]);
    const approved = await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: decider.token });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect((await packageNow(pkg, u.designDev.token))?.status).toBe('AWAITING_SIGNATURE');
  }, 120_000);
});
