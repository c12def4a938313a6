import { describe, expect, it } from 'vitest';
import { PACKAGE_ERR } from '../../../shared/domain/package-texts';
import { packageWorld, SIG } from '../../testing/package-test-kit';

/**
 * No one reviews their own bytes (decision 331): whoever uploaded a package's resource is neither offered
 * nor accepted as approver, signer or delivery approver; and every round has the policy's minimum of
 * approver roles, whoever holds a role today (decision 332).
 */
const UPLOADER_REFUSED = 'Tess Tester uploaded the firmware of this package, so they cannot review it';

/** A team, and a draft of `type` made by the initiator from a resource the design engineer (test) uploaded. */
async function uploadedByTester(type: 'DEV_SIGNED' | 'RELEASE_SIGNED' = 'RELEASE_SIGNED') {
  const w = packageWorld();
  const t = w.team();
  const p = await w.draft(t.initiator, type, 'Pump 3.1', t.test);
  return { w, t, p };
}

describe('the uploader of the resource (approval round)', () => {
  it('is pinned on the package at creation and not offered as approver or signer; the answer names them', async () => {
    const { w, t, p } = await uploadedByTester();
    expect((await w.packages.get(p.id))?.uploader).toEqual({ id: t.test.id, name: 'Tess Tester' });
    const offered = await w.service.approvers(t.initiator, p.id, true);
    expect(offered.uploader).toEqual({ id: t.test.id, name: 'Tess Tester' });
    expect(offered.approvers.DESIGN_ENGINEER_TEST).toBeUndefined();
    expect(offered.approvers.TECHNICAL_LEADER?.map((u) => u.id)).toEqual([t.lead.id]);
  });

  it('is refused as an approver with the reason, and nothing changes', async () => {
    const w2 = packageWorld();
    const t = w2.team();
    const second = w2.user('TECHNICAL_LEADER', 'Lee Second');
    const p = await w2.draft(t.initiator, 'DEV_SIGNED', 'Pump 3.2', t.lead);
    const withUploader = w2.choice([t.test, t.lead, t.reliability, t.release], t.release);
    await expect(w2.service.notify(t.initiator, p.id, withUploader)).rejects.toMatchObject({
      statusCode: 400,
      message: 'Leo Lead uploaded the firmware of this package, so they cannot review it',
    });
    expect((await w2.packages.get(p.id))?.status).toBe('DRAFT');
    expect(w2.outbox.mails).toEqual([]);
    // another technical leader may approve it
    const ok = w2.choice([t.test, second, t.reliability, t.release], t.release);
    expect((await w2.service.notify(t.initiator, p.id, ok)).status).toBe('PENDING_APPROVAL');
  });

  it('is refused as the signer with the reason (a release engineer who uploaded)', async () => {
    const w = packageWorld();
    const t = w.team();
    const otherRelease = w.user('SW_FW_RELEASE_ENGINEER', 'Rae Other');
    const p = await w.draft(t.initiator, 'DEV_SIGNED', 'Pump 3.3', t.release);
    const offered = await w.service.approvers(t.initiator, p.id, true);
    expect(offered.signers?.map((u) => u.id)).toEqual([otherRelease.id]);
    const approvers = [t.test, t.lead, t.reliability, otherRelease];
    await expect(w.service.notify(t.initiator, p.id, w.choice(approvers, t.release))).rejects.toMatchObject({
      statusCode: 400,
      message: 'Remy Release uploaded the firmware of this package, so they cannot review it',
    });
    expect((await w.packages.get(p.id))?.status).toBe('DRAFT');
  });

  it('a package made before the uploader was pinned learns it from its resource; without the resource it is not sent on', async () => {
    const { w, t, p } = await uploadedByTester('DEV_SIGNED');
    const stored = (await w.packages.get(p.id))!;
    const { uploader: _pinned, ...older } = stored;
    expect(await w.packages.save(older, stored)).toBe(true);
    expect((await w.packages.get(p.id))?.uploader).toBeUndefined();
    const offered = await w.service.approvers(t.initiator, p.id, true);
    expect(offered.uploader?.id).toBe(t.test.id);
    expect(offered.approvers.DESIGN_ENGINEER_TEST).toBeUndefined();
    const choice = w.choice([t.test, t.lead, t.reliability, t.release], t.release);
    await expect(w.service.notify(t.initiator, p.id, choice)).rejects.toMatchObject({
      statusCode: 400,
      message: UPLOADER_REFUSED,
    });
    w.resources.delete(stored.resourceId);
    await expect(w.service.approvers(t.initiator, p.id, true)).rejects.toMatchObject({
      statusCode: 409,
      message: PACKAGE_ERR.uploaderUnknown,
    });
  });
});

describe('the uploader of the resource (delivery round)', () => {
  it('is not offered nor accepted as a delivery approver', async () => {
    const { w, t, p } = await uploadedByTester();
    const approvers = [t.lead, t.reliability, t.release, w.user('DESIGN_ENGINEER_TEST', 'Tom Second')];
    await w.service.notify(t.initiator, p.id, w.choice(approvers, t.release));
    await w.approveAll(p.id, approvers);
    await w.service.sign(t.release, p.id, SIG);
    await w.runJobs();
    const deliverer = w.user('SW_FW_RELEASE_ENGINEER', 'Dora Deliverer');
    const offered = await w.service.approvers(deliverer, p.id, false);
    expect(offered.approvers.DESIGN_ENGINEER_TEST?.map((u) => u.name)).toEqual(['Tom Second']);
    const withUploader = w.choice([t.test, t.lead, t.reliability, t.release]);
    await expect(w.service.deliver(deliverer, p.id, withUploader, SIG)).rejects.toMatchObject({
      statusCode: 400,
      message: UPLOADER_REFUSED,
    });
    expect((await w.packages.get(p.id))?.status).toBe('SIGNED');
  });
});

describe("the policy's minimum of approver roles (decision 332)", () => {
  it('refuses a development package with one approver role that may approve', async () => {
    const w = packageWorld();
    const initiator = w.user('DESIGN_ENGINEER_DEV', 'Ida Initiator');
    const release = w.user('SW_FW_RELEASE_ENGINEER', 'Remy Release');
    const p = await w.draft(initiator, 'DEV_SIGNED');
    await expect(w.service.notify(initiator, p.id, w.choice([release], release))).rejects.toMatchObject({
      statusCode: 400,
      message:
        'This package (Development package, signed) needs at least 2 approver roles; only 1 has someone who may approve: ask an admin to grant the Design Engineer (dev), Design Engineer (test), Technical Leader or Reliability Engineer role to a colleague who may approve it.',
    });
  });

  it('refuses a delivery below the minimum once roles were revoked, whatever is left to choose', async () => {
    const w = packageWorld();
    const t = w.team();
    const approvers = w.approversFor(t, 'RELEASE_SIGNED');
    const p = await w.draft(t.initiator, 'RELEASE_SIGNED');
    await w.service.notify(t.initiator, p.id, w.choice(approvers, t.release));
    await w.approveAll(p.id, approvers);
    await w.service.sign(t.release, p.id, SIG);
    await w.runJobs();
    const deliverer = w.user('SW_FW_RELEASE_ENGINEER', 'Dora Deliverer');
    // two roles revoked: only the technical leader and the first release engineer may still approve
    for (const u of [t.test, t.reliability]) w.users.set(u.id, { ...u, roleStatus: 'REFUSED' });
    await expect(
      w.service.deliver(deliverer, p.id, w.choice([t.lead, t.release]), SIG),
    ).rejects.toMatchObject({
      statusCode: 400,
      message:
        'Its delivery needs at least 3 approver roles; only 2 have someone who may approve: ask an admin to grant the Design Engineer (dev), Design Engineer (test) or Reliability Engineer role to a colleague who may approve it.',
    });
    expect((await w.packages.get(p.id))?.status).toBe('SIGNED');
  });
});
