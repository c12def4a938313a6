import { describe, expect, it } from 'vitest';
import { packageWorld } from '../../testing/package-test-kit';

describe('generate (a new DRAFT)', () => {
  it('creates a draft of the caller from a resource of its stage, once per name', async () => {
    const w = packageWorld();
    const u = w.user('DESIGN_ENGINEER_DEV');
    const r = w.resource('RELEASE', 'Firmware 7');
    const p = await w.service.generate(u, r.id, {
      packageName: 'Pump',
      packageType: 'RELEASE_SIGNED',
      note: 'n',
    });
    expect([p.status, p.signed, p.initiator.id, p.resourceName, p.resourceStage]).toEqual([
      'DRAFT',
      true,
      u.id,
      'Firmware 7',
      'RELEASE',
    ]);
    expect(await w.service.getHeader(p.id)).toEqual({ type: 'RELEASE_SIGNED', size: 1234, edits: 0 });
    const created = (await w.audit.history(`PKG#${p.id}`)).events[0];
    expect([created?.action, created?.meaning, created?.details?.resourceSha256]).toEqual([
      'PACKAGE_CREATED',
      'creates a RELEASE_SIGNED package from Firmware 7',
      r.sha256,
    ]);
    await expect(
      w.service.generate(u, r.id, { packageName: 'PUMP', packageType: 'RELEASE_SIGNED', note: 'n' }),
    ).rejects.toMatchObject({ statusCode: 409, message: "Package with name 'PUMP' already exists" });
  });

  it('refuses a type of the other stage and a missing resource', async () => {
    const w = packageWorld();
    const u = w.user('DESIGN_ENGINEER_DEV');
    const r = w.resource('DEV');
    await expect(
      w.service.generate(u, r.id, { packageName: 'x', packageType: 'RELEASE_UNSIGNED', note: 'n' }),
    ).rejects.toMatchObject({
      statusCode: 400,
      message: 'A dev resource makes DEV_SIGNED or DEV_UNSIGNED packages',
    });
    await expect(
      w.service.generate(u, 'gone', { packageName: 'x', packageType: 'DEV_UNSIGNED', note: 'n' }),
    ).rejects.toMatchObject({ statusCode: 404, message: 'Resource not found' });
    expect(await w.service.listAll()).toEqual([]);
  });
});

describe('header and DCC of a draft (initiator only, DRAFT only)', () => {
  it('lets the initiator edit the header and attach a DCC, audited', async () => {
    const w = packageWorld();
    const u = w.user('DESIGN_ENGINEER_DEV');
    const p = await w.draft(u, 'DEV_UNSIGNED');
    const header = await w.service.updateHeader(u, p.id, { edits: 1 });
    expect(header).toEqual({ type: 'DEV_UNSIGNED', size: 1234, edits: 1 });
    expect(await w.service.getHeader(p.id)).toEqual(header);
    expect((await w.actions(p.id)).slice(1)).toEqual(['DCC_ATTACHED', 'HEADER_EDITED']);
    const attach = (await w.audit.history(`PKG#${p.id}`)).events[1];
    expect([attach?.meaning, attach?.details?.dccId]).toEqual(['attaches DCC device-1 (BLE)', p.dccId]);
  });

  it('refuses others, a sent package, a missing DCC and a deleted resource', async () => {
    const w = packageWorld();
    const t = w.team();
    const p = await w.draft(t.initiator, 'DEV_UNSIGNED');
    await expect(w.service.updateHeader(t.lead, p.id, {})).rejects.toMatchObject({
      statusCode: 403,
      message: "Only the package's initiator can edit the header",
    });
    await expect(w.service.attachDcc(t.lead, p.id, p.dccId)).rejects.toMatchObject({
      statusCode: 403,
      message: "Only the package's initiator can attach a DCC",
    });
    await expect(w.service.attachDcc(t.initiator, p.id, 'nope')).rejects.toMatchObject({
      statusCode: 404,
      message: 'DCC not found',
    });
    await expect(w.service.updateHeader(t.initiator, 'nope', {})).rejects.toMatchObject({
      statusCode: 404,
      message: 'Package not found',
    });
    await w.service.notify(t.initiator, p.id, w.choice(w.approversFor(t, 'DEV_UNSIGNED')));
    await expect(w.service.updateHeader(t.initiator, p.id, {})).rejects.toMatchObject({
      statusCode: 409,
      message: 'The package was already sent for approval; its the header can no longer change',
    });
    await expect(w.service.attachDcc(t.initiator, p.id, p.dccId)).rejects.toMatchObject({
      statusCode: 409,
      message: 'The package was already sent for approval; its attach a DCC can no longer change',
    });
    const other = await w.draft(t.initiator, 'DEV_UNSIGNED');
    w.resources.delete(other.resourceId);
    await expect(w.service.updateHeader(t.initiator, other.id, {})).rejects.toMatchObject({
      statusCode: 409,
      message: 'The resource of this package was deleted',
    });
  });
});

describe('approvers to choose from', () => {
  it('lists granted holders per role without the initiator, in the draft and while in approval', async () => {
    const w = packageWorld();
    const t = w.team();
    w.user('TECHNICAL_LEADER', 'Not granted', { roleStatus: 'REQUESTED' });
    w.user('ADMIN');
    const p = await w.draft(t.initiator, 'DEV_SIGNED');
    const forDraft = await w.service.approvers(t.initiator, p.id, true);
    const approvers = w.approversFor(t, 'DEV_SIGNED');
    // the roles the policy asks for, each with its granted holders (the initiator's own role has none)
    expect(Object.keys(forDraft.approvers)).toEqual(approvers.map((u) => u.userRole));
    expect(forDraft.approvers.TECHNICAL_LEADER?.map((u) => u.id)).toEqual([t.lead.id]);
    expect(forDraft.signers?.map((u) => u.id)).toEqual([t.release.id]);
    await w.service.notify(t.initiator, p.id, w.choice(approvers, t.release));
    // in approval the candidates are still the approval round's: whom a departed approver's place may go to (decision 351)
    const later = await w.service.approvers(t.initiator, p.id, false);
    expect(Object.keys(later.approvers)).toEqual(approvers.map((u) => u.userRole));
    expect(later.signers).toBeUndefined();
  });
});
