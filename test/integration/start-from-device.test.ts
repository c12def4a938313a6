import { beforeAll, describe, expect, it } from 'vitest';
import type { Package, PackageSource } from '../../shared/api/contracts/packages';
import { api, jsonText, uniq } from '../support/api';
import { createDcc, createPackage, seededUsers, uploadModel, uploadPatch } from '../support/fixtures';
import { chosenApprovers } from '../support/package-flow';

/**
 * Decision 268: "start from an earlier package" offers the packages of the same resource and of the same
 * device exactly (a package whose DCC copy names one of the resource's DCC device ids, whatever DCC row
 * or resource), never another device's or another resource type's; by default the latest rejected or
 * approved one.
 */

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
});

async function withDcc(resourceId: string, dccId: string, type = 'DEV_UNSIGNED'): Promise<Package> {
  const pkg = await createPackage(u.designDev.token, resourceId, type, uniq('device-src'));
  const att = await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token });
  if (att.status !== 200) throw new Error(`dcc: ${att.status} ${JSON.stringify(att.body)}`);
  return pkg;
}

async function sources(resourceId: string, deviceId?: string) {
  const query = deviceId === undefined ? '' : `?deviceId=${encodeURIComponent(deviceId)}`;
  const r = await api<{ packages: string; proposedId: string | null }>(
    `/resources/${resourceId}/package-sources${query}`,
    { token: u.designDev.token },
  );
  expect(r.status).toBe(200);
  return { list: jsonText<PackageSource[]>(r.body.packages), proposedId: r.body.proposedId };
}

const byId = (list: PackageSource[]) => Object.fromEntries(list.map((s) => [s.id, s.match]));

describe('start from: same resource or same device exactly (decision 268)', () => {
  it('offers the device’s packages of other resources, not another device’s nor another type’s; proposes the rejected one', async () => {
    const device = uniq('dev-exact');
    const dccA = await createDcc(u.designDev.token, device);
    // a second DCC row of the same device id (other telemetry): the device is the id, not the row
    const other = await api<{ dccUuid: string }>('/dcc', {
      method: 'POST',
      token: u.designDev.token,
      body: { deviceId: device, telemetryType: 'BLE', messageLimit: 64, deviceLimit: 8192 },
    });
    expect(other.status).toBe(201);
    const dccB = other.body.dccUuid;
    // a device whose id only starts like this one's: another device
    const dccOther = await createDcc(u.designDev.token, `${device}-2`);

    const r1 = await uploadPatch(u.designDev.token, 'dev');
    const rejected = await withDcc(r1.id, dccA);
    const n = await api(`/packages/${rejected.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: { approvers: chosenApprovers(u, rejected.type) },
    });
    expect(n.status).toBe(200);
    const rej = await api(`/packages/${rejected.id}/reject`, {
      method: 'POST',
      token: u.lead.token,
      body: { 'rejection-reason': 'Wrong criteria' },
    });
    expect(rej.status).toBe(200);

    const r2 = await uploadPatch(u.designDev.token, 'dev');
    const sameDevice = await withDcc(r2.id, dccB);
    const r3 = await uploadPatch(u.designDev.token, 'dev');
    const otherDevice = await withDcc(r3.id, dccOther);
    const model = await uploadModel(u.designDev.token, 'dev');
    const modelPkg = await withDcc(model.id, dccA);

    // the resource with the device's packages: its own, and the rejected one of another resource
    const s2 = await sources(r2.id);
    expect(byId(s2.list)).toEqual({ [sameDevice.id]: 'resource', [rejected.id]: 'device' });
    expect(s2.proposedId).toBe(rejected.id);
    expect(s2.list.find((s) => s.id === rejected.id)).toMatchObject({ deviceId: device, status: 'REJECTED' });

    // the first resource: its own rejected package, and the device's package of the other resource
    const s1 = await sources(r1.id);
    expect(byId(s1.list)).toEqual({ [rejected.id]: 'resource', [sameDevice.id]: 'device' });
    expect(s1.proposedId).toBe(rejected.id);
    for (const id of [otherDevice.id, modelPkg.id]) expect(s1.list.map((s) => s.id)).not.toContain(id);

    // a resource without a package has no device yet: nothing beyond its own packages
    const fresh = await uploadPatch(u.designDev.token, 'dev');
    expect((await sources(fresh.id)).list).toEqual([]);

    // … unless the user names the device on step 1: then its packages of this resource type, exactly that
    // device id (not `…-2`), never the model's; the rejected one proposed
    const named = await sources(fresh.id, device);
    expect(byId(named.list)).toEqual({ [rejected.id]: 'device', [sameDevice.id]: 'device' });
    expect(named.proposedId).toBe(rejected.id);
    expect(named.list.find((s) => s.id === rejected.id)).toMatchObject({
      deviceId: device,
      status: 'REJECTED',
    });
    // a new model named with the same device: the model's package only, no patch's
    const freshModel = await uploadModel(u.designDev.token, 'dev');
    expect(byId((await sources(freshModel.id, device)).list)).toEqual({ [modelPkg.id]: 'device' });
    // a device id nobody uses: nothing, and no proposal
    const none = await sources(fresh.id, uniq('no-such-device'));
    expect(none).toEqual({ list: [], proposedId: null });

    // a bad device id: a 400 that says what is wrong
    for (const bad of ['', '   ', 'x'.repeat(65), 'IP\u0000-4000']) {
      const r = await api<{ errorMessage: string }>(
        `/resources/${fresh.id}/package-sources?deviceId=${encodeURIComponent(bad)}`,
        { token: u.designDev.token },
      );
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.errorMessage).toMatch(/deviceId|characters/);
    }

    // a resource of its own device sees nothing of this one
    const s3 = await sources(r3.id);
    expect(byId(s3.list)).toEqual({ [otherDevice.id]: 'resource' });
    expect(s3.proposedId).toBeNull();
  }, 180_000);
});
