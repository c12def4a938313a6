import { beforeAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import type { PackageChanges } from '../../shared/domain/package-changes';
import { PACKAGE_ERR } from '../../shared/domain/package-texts';
import { MSG } from '../../shared/messages';
import { api, jsonText, uniq } from '../support/api';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import { approveAllButLast, chosenApprovers, headerOf, lastSteps } from '../support/package-flow';

/**
 * GET /packages/{id}/changes compares a package with the last approved package for the same
 * device (DCC device id) and resource type (decisions 245–246): a rejected one is passed over, another
 * device's is not seen, a package already approved is compared with the one approved before it.
 */

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
});

interface ChangesAnswer {
  changes: string;
  previousPackageId: string | null;
  message?: string;
}

async function changesOf(id: string, token = u.lead.token) {
  const r = await api<ChangesAnswer>(`/packages/${id}/changes`, { token });
  if (r.status !== 200) throw new Error(`changes: ${r.status} ${JSON.stringify(r.body)}`);
  return { ...r.body, parsed: jsonText<PackageChanges>(r.body.changes) };
}

/** A draft of a new patch with Package Id `packageId`, `criteria` Patch Criteria entries and DCC `dccId`. */
async function draft(dccId: string | null, packageId: number, criteria = 0): Promise<Package> {
  const resource = await uploadPatch(u.designDev.token, 'dev');
  const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED', uniq('changes'));
  const header = await headerOf(pkg.id, u.designDev.token);
  header.fields.find((f) => f.name === 'Package Id')!.value = packageId;
  header.fields.find((f) => f.name === 'Patch Criteria Items')!.value = Array.from(
    { length: criteria },
    (_, i) => ({ Address: 0x1000 + i, Mask: 0xffffffff, Value: packageId + i, Operator: 0 }),
  );
  const saved = await api(`/packages/${pkg.id}/header`, {
    method: 'PATCH',
    token: u.designDev.token,
    body: { header: JSON.stringify(header) },
  });
  if (saved.status !== 200) throw new Error(`header: ${saved.status} ${JSON.stringify(saved.body)}`);
  if (dccId) {
    const att = await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token });
    if (att.status !== 200) throw new Error(`dcc: ${att.status} ${JSON.stringify(att.body)}`);
  }
  return pkg;
}

async function notify(pkg: Package) {
  const n = await api(`/packages/${pkg.id}/notify-approvers`, {
    method: 'POST',
    token: u.designDev.token,
    body: { approvers: chosenApprovers(u, pkg.type) },
  });
  if (n.status !== 200) throw new Error(`notify: ${n.status} ${JSON.stringify(n.body)}`);
}

async function approved(pkg: Package) {
  await notify(pkg);
  await approveAllButLast(u, pkg);
  await lastSteps(u, pkg);
}

describe('GET /packages/{id}/changes', () => {
  it('compares with the last approved package of the device, skipping a rejected one, and says when there is none', async () => {
    const device = uniq('device-changes');
    const dccId = await createDcc(u.designDev.token, device);

    const first = await draft(dccId, 1, 1);
    // before anything was approved for this device: none
    const none = await changesOf(first.id);
    expect(none.previousPackageId).toBeNull();
    expect(none.message).toBe(MSG.noEarlierApproved);
    expect(none.parsed).toMatchObject({ previous: null, deviceId: device, resourceType: 'PATCH' });
    await approved(first);

    // a newer package of the same device, rejected in approval: never "the last approved"
    const rejected = await draft(dccId, 2, 0);
    await notify(rejected);
    const r = await api(`/packages/${rejected.id}/reject`, {
      method: 'POST',
      token: u.lead.token,
      body: { 'rejection-reason': 'Wrong criteria' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);

    const next = await draft(dccId, 3, 2);
    const c = await changesOf(next.id);
    expect(c.previousPackageId).toBe(first.id);
    expect(c.message).toBeUndefined();
    expect(c.parsed.previous).toMatchObject({ id: first.id, name: first.name, status: 'APPROVED' });
    expect(c.parsed.previous?.approvedAt).toMatch(/Z$/);
    expect(c.parsed.header.find((h) => h.path === 'Package Id')).toEqual({
      path: 'Package Id',
      type: 'uint32',
      old: { decimal: '1', hex: '0x00000001' },
      new: { decimal: '3', hex: '0x00000003' },
    });
    const criteria = c.parsed.lists.find((l) => l.field === 'Patch Criteria Items');
    expect(criteria).toMatchObject({ oldCount: 1, newCount: 2, removed: [] });
    expect(criteria?.added.map((e) => e.index)).toEqual([1]);
    expect(criteria?.changed.map((e) => e.index)).toEqual([0]);
    // another payload: both digests and sizes shown, not the same
    const payload = c.parsed.files.find((f) => f.file === 'payload');
    expect(payload?.old?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(payload?.new?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(payload?.sameDigest).toBe(false);
    // the same DCC: no DCC difference
    expect(c.parsed.dcc).toEqual([]);

    // once approved itself, the first package has nothing before it; the next one compares with itself
    // never, and with the first
    expect((await changesOf(first.id)).previousPackageId).toBeNull();
    await approved(next);
    expect((await changesOf(next.id)).previousPackageId).toBe(first.id);
    const third = await draft(dccId, 4, 0);
    expect((await changesOf(third.id)).previousPackageId).toBe(next.id);
  }, 240_000);

  it('does not mix devices; a DCC with another device id differs; a draft without a DCC has no device yet', async () => {
    const device = uniq('device-a');
    const a = await draft(await createDcc(u.designDev.token, device), 5, 0);
    await approved(a);
    const other = await draft(await createDcc(u.designDev.token, uniq('device-b')), 6, 0);
    expect((await changesOf(other.id)).previousPackageId).toBeNull();

    const noDcc = await draft(null, 7, 0);
    const n = await changesOf(noDcc.id);
    expect([n.previousPackageId, n.message, n.parsed.deviceId]).toEqual([null, MSG.changesNoDevice, null]);

    // the same device id, another DCC row with other limits: the DCC copy's differences are listed
    const r = await api<{ dccUuid: string }>('/dcc', {
      method: 'POST',
      token: u.designDev.token,
      body: { deviceId: device, telemetryType: 'BLE', messageLimit: 64, deviceLimit: 8192 },
    });
    expect(r.status).toBe(201);
    const b = await draft(r.body.dccUuid, 8, 0);
    const c = await changesOf(b.id);
    expect(c.previousPackageId).toBe(a.id);
    expect(c.parsed.dcc.map((d) => d.field)).toEqual(['dccId', 'telemetryType', 'deviceLimit']);
    expect(c.parsed.dcc.find((d) => d.field === 'deviceLimit')).toEqual({
      field: 'deviceLimit',
      old: 4096,
      new: 8192,
    });
  }, 180_000);

  it('is read by whoever reads the package (engineers, approvers, admins); 401 without a session, 404 for an unknown id', async () => {
    const pkg = await draft(null, 9, 0);
    for (const who of [u.designDev, u.designTest, u.lead, u.reliability, u.release, u.admin]) {
      const r = await api(`/packages/${pkg.id}/changes`, { token: who.token });
      expect(r.status, who.email).toBe(200);
    }
    expect((await api(`/packages/${pkg.id}/changes`)).status).toBe(401);
    const unknown = await api<{ errorMessage: string }>('/packages/no-such-package/changes', {
      token: u.lead.token,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errorMessage).toBe(PACKAGE_ERR.packageNotFound);
  });
});
