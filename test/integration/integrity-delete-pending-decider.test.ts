import { beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser } from '../../shared/api/contracts/user';
import { APPROVAL_POLICY } from '../../shared/domain/approval-policy';
import type { NonAdminRole } from '../../shared/domain/roles';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { api, jsonText } from '../support/api';
import { type DirectUser, directUsers } from '../support/direct-users';
import { createDcc, createPackage, seededUser, seededUsers, uploadPatch } from '../support/fixtures';
import {
  approveAllButLast,
  approversFor,
  chosenApprovers,
  lastApprover,
  lastStepStatuses,
  lastSteps,
  seededSigner,
} from '../support/package-flow';

/**
 * An admin cannot delete a user a package still waits for (an undecided approver, the signer, an
 * undecided delivery approver): 409 naming the packages, and nobody is deleted. Once the package no longer
 * waits for them, the same deletion goes through.
 */
type Users = Awaited<ReturnType<typeof seededUsers>>;
let u: Users;
beforeAll(async () => {
  u = await seededUsers();
});

const deleteUsers = (ids: string[]) =>
  api('/admin/users', { method: 'DELETE', token: u.admin.token, body: ids });

async function exists(id: string): Promise<boolean> {
  const r = await api<{ users: string }>('/admin/users', { token: u.admin.token });
  return jsonText<PublicUser[]>(r.body.users).some((x) => x.id === id);
}

/** A signed dev package in DRAFT with a DCC, by the seeded dev design engineer. */
async function draft(name: string) {
  const resource = await uploadPatch(u.designDev.token, 'dev');
  const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_SIGNED', name);
  const dccId = await createDcc(u.designDev.token);
  expect(
    (await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token })).status,
  ).toBe(200);
  return pkg;
}

/** The policy's approvers of a signed dev package, `decider` in place of the seeded holder of its role. */
async function notify(pkgId: string, decider: DirectUser, role: NonAdminRole, signer: { id: string }) {
  const r = await api(`/packages/${pkgId}/notify-approvers`, {
    method: 'POST',
    token: u.designDev.token,
    body: { approvers: chosenApprovers(u, 'DEV_SIGNED', 'approval', { [role]: decider }), signer: signer.id },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

describe('deleting a user a package waits for', () => {
  // the pending decider holds the role that approves first in the policy's order (decision 272)
  let role: NonAdminRole;
  let decider: DirectUser | undefined;
  let signer: DirectUser | undefined;
  beforeAll(async () => {
    role = approversFor(u, 'DEV_SIGNED')[0]!.role;
    [decider] = await directUsers(1, role, 'PendingDecider');
    [signer] = await directUsers(1, APPROVAL_POLICY.signer.role, 'PendingSigner');
  });

  it('is refused with 409 naming the packages while the user is an undecided approver or the signer, then allowed once decided', async () => {
    const first = await draft(`pending-first-${Date.now()}`);
    const second = await draft(`pending-second-${Date.now()}`);
    await notify(first.id, decider!, role, signer!);
    await notify(second.id, decider!, role, signer!);

    const refused = await deleteUsers([decider!.id]);
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.errorMessage).toContain(decider!.email);
    expect(refused.body.errorMessage).toContain(`'${first.name}'`);
    expect(refused.body.errorMessage).toContain(`'${second.name}'`);
    expect(await exists(decider!.id)).toBe(true);

    // the signer is awaited from notify on, before any signing task exists
    const signerRefused = await deleteUsers([signer!.id]);
    expect(signerRefused.status, JSON.stringify(signerRefused.body)).toBe(409);
    expect(signerRefused.body.errorMessage).toContain(signer!.email);
    expect(await exists(signer!.id)).toBe(true);

    // a batch holding one blocked user deletes nobody
    const [free] = await directUsers(1, 'RELIABILITY_ENGINEER', 'Bystander');
    expect((await deleteUsers([free!.id, decider!.id])).status).toBe(409);
    expect(await exists(free!.id)).toBe(true);

    // the decider approves both (first in the policy's order): no longer awaited as approver, still
    // blocked as nothing else
    for (const p of [first, second])
      expect((await api(`/packages/${p.id}/approve`, { method: 'POST', token: decider!.token })).status).toBe(
        202,
      );
    const afterVotes = await deleteUsers([decider!.id, free!.id]);
    expect(afterVotes.status, JSON.stringify(afterVotes.body)).toBe(200);
    expect(await exists(decider!.id)).toBe(false);

    // the signer stays blocked until the packages no longer wait for a signature
    expect((await deleteUsers([signer!.id])).status).toBe(409);
    expect(
      (
        await api('/admin/packages', {
          method: 'DELETE',
          token: u.admin.token,
          // a package in flight: the admin signs its deletion
          body: { ids: [first.id], password: SEED_PASSWORD, reason: 'Superseded by the second build' },
        })
      ).status,
    ).toBe(200);
    const stillSecond = await deleteUsers([signer!.id]);
    expect(stillSecond.status).toBe(409);
    expect(stillSecond.body.errorMessage).toContain(`'${second.name}'`);
    expect(stillSecond.body.errorMessage).not.toContain(`'${first.name}'`);
    // an approver still undecided (the last in the policy's order) rejects: a rejection may come any time
    const rejected = await api(`/packages/${second.id}/reject`, {
      method: 'POST',
      token: lastApprover(u, second.type).token,
      body: { 'rejection-reason': 'Not this build' },
    });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect((await deleteUsers([signer!.id])).status).toBe(200);
    expect(await exists(signer!.id)).toBe(false);
  }, 120_000);

  it('is refused while the user is an undecided delivery approver, and allowed once delivery was decided', async () => {
    const [deliveryLead] = await directUsers(1, 'TECHNICAL_LEADER', 'DeliveryLead');
    // a release package, approved by its four approvers and signed (an unsigned release package is never
    // sent to delivery: decision 193)
    const resource = await uploadPatch(u.designDev.token, 'release');
    const pkg = await createPackage(
      u.designDev.token,
      resource.id,
      'RELEASE_SIGNED',
      `pending-delivery-${Date.now()}`,
    );
    const dccId = await createDcc(u.designDev.token);
    expect(
      (await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token })).status,
    ).toBe(200);
    const notified = await api(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: { approvers: chosenApprovers(u, pkg.type), signer: seededSigner(u).id },
    });
    expect(notified.status, JSON.stringify(notified.body)).toBe(200);
    await approveAllButLast(u, pkg);
    // the last approval and the signature (202 GENERATING); lastSteps waits for SIGNED (decision 160)
    expect((await lastSteps(u, pkg)).map((r) => r.status)).toEqual(lastStepStatuses(pkg));

    // the policy's delivery approvers but the starter, the new Technical Leader among them
    const delivery = await api(`/delivery/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.release.token,
      body: {
        approvers: chosenApprovers(u, pkg.type, 'delivery', { TECHNICAL_LEADER: deliveryLead! }).filter(
          (a) => a.id !== u.release.id,
        ),
      },
    });
    expect(delivery.status, JSON.stringify(delivery.body)).toBe(200);

    const refused = await deleteUsers([deliveryLead!.id]);
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.errorMessage).toContain(`'${pkg.name}'`);
    expect(await exists(deliveryLead!.id)).toBe(true);

    const rejected = await api(`/delivery/packages/${pkg.id}/reject`, {
      method: 'POST',
      token: deliveryLead!.token,
      body: { 'rejection-reason': 'Wrong fleet' },
    });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect((await deleteUsers([deliveryLead!.id])).status).toBe(200);
  }, 120_000);

  it('still deletes a user nothing waits for', async () => {
    const [idle] = await directUsers(1, 'TECHNICAL_LEADER', 'IdleLead');
    expect((await deleteUsers([idle!.id])).status).toBe(200);
    expect(await exists(idle!.id)).toBe(false);
    // the admin is unaffected
    expect((await seededUser('admin')).id).toBe(u.admin.id);
  }, 60_000);
});
