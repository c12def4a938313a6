import { beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser } from '../../shared/api/contracts/user';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { api, jsonText } from '../support/api';
import { type DirectUser, directUsers } from '../support/direct-users';
import { createDcc, createPackage, seededUser, seededUsers, uploadPatch } from '../support/fixtures';
import { waitForStatus } from '../support/package-flow';

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

async function notify(pkgId: string, lead: { id: string }, signer: { id: string }) {
  const r = await api(`/packages/${pkgId}/notify-approvers`, {
    method: 'POST',
    token: u.designDev.token,
    body: {
      approvers: [
        { role: 'DESIGN_ENGINEER_TEST', id: u.designTest.id },
        { role: 'TECHNICAL_LEADER', id: lead.id },
        { role: 'RELIABILITY_ENGINEER', id: u.reliability.id },
        { role: 'SW_FW_RELEASE_ENGINEER', id: u.release.id },
      ],
      signer: signer.id,
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

describe('deleting a user a package waits for', () => {
  let lead: DirectUser | undefined;
  let signer: DirectUser | undefined;
  beforeAll(async () => {
    [lead] = await directUsers(1, 'TECHNICAL_LEADER', 'PendingLead');
    [signer] = await directUsers(1, 'SW_FW_RELEASE_ENGINEER', 'PendingSigner');
  });

  it('is refused with 409 naming the packages while the user is an undecided approver or the signer, then allowed once decided', async () => {
    const first = await draft(`pending-first-${Date.now()}`);
    const second = await draft(`pending-second-${Date.now()}`);
    await notify(first.id, lead!, signer!);
    await notify(second.id, lead!, signer!);

    const refused = await deleteUsers([lead!.id]);
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.errorMessage).toContain(lead!.email);
    expect(refused.body.errorMessage).toContain(`'${first.name}'`);
    expect(refused.body.errorMessage).toContain(`'${second.name}'`);
    expect(await exists(lead!.id)).toBe(true);

    // the signer is awaited from notify on, before any signing task exists
    const signerRefused = await deleteUsers([signer!.id]);
    expect(signerRefused.status, JSON.stringify(signerRefused.body)).toBe(409);
    expect(signerRefused.body.errorMessage).toContain(signer!.email);
    expect(await exists(signer!.id)).toBe(true);

    // a batch holding one blocked user deletes nobody
    const [free] = await directUsers(1, 'RELIABILITY_ENGINEER', 'Bystander');
    expect((await deleteUsers([free!.id, lead!.id])).status).toBe(409);
    expect(await exists(free!.id)).toBe(true);

    // the lead approves both: no longer awaited as approver, still blocked as nothing else
    for (const p of [first, second])
      expect((await api(`/packages/${p.id}/approve`, { method: 'POST', token: lead!.token })).status).toBe(
        202,
      );
    const afterVotes = await deleteUsers([lead!.id, free!.id]);
    expect(afterVotes.status, JSON.stringify(afterVotes.body)).toBe(200);
    expect(await exists(lead!.id)).toBe(false);

    // the signer stays blocked until the packages no longer wait for a signature
    expect((await deleteUsers([signer!.id])).status).toBe(409);
    expect(
      (
        await api('/admin/packages', {
          method: 'DELETE',
          token: u.admin.token,
          // a package in flight: the admin signs its deletion (issue 23)
          body: { ids: [first.id], password: SEED_PASSWORD, reason: 'Superseded by the second build' },
        })
      ).status,
    ).toBe(200);
    const stillSecond = await deleteUsers([signer!.id]);
    expect(stillSecond.status).toBe(409);
    expect(stillSecond.body.errorMessage).toContain(`'${second.name}'`);
    expect(stillSecond.body.errorMessage).not.toContain(`'${first.name}'`);
    const rejected = await api(`/packages/${second.id}/reject`, {
      method: 'POST',
      token: u.designTest.token,
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
    const approvers = [u.designTest, u.lead, u.reliability, u.release];
    const notified = await api(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: {
        approvers: [
          'DESIGN_ENGINEER_TEST',
          'TECHNICAL_LEADER',
          'RELIABILITY_ENGINEER',
          'SW_FW_RELEASE_ENGINEER',
        ].map((role, i) => ({ role, id: approvers[i]!.id })),
        signer: u.release.id,
      },
    });
    expect(notified.status, JSON.stringify(notified.body)).toBe(200);
    for (const a of approvers)
      expect(
        (await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: a.token })).status,
      ).toBeLessThan(300);
    const signed = await api(`/packages/${pkg.id}/generate-signed`, {
      method: 'POST',
      token: u.release.token,
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(202);
    // the signature answered 202 GENERATING; delivery waits for the generated package (decision 160)
    await waitForStatus(pkg, u.release.token, 'SIGNED');

    const delivery = await api(`/delivery/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.release.token,
      body: {
        approvers: [
          { role: 'DESIGN_ENGINEER_TEST', id: u.designTest.id },
          { role: 'TECHNICAL_LEADER', id: deliveryLead!.id },
          { role: 'RELIABILITY_ENGINEER', id: u.reliability.id },
        ],
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
