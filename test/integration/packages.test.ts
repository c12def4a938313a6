import { beforeAll, describe, expect, it } from 'vitest';
import type { Dcc } from '../../shared/api/contracts/dcc';
import type { Package, PackageType } from '../../shared/api/contracts/packages';
import type { NonAdminRole } from '../../shared/domain/roles';
import { MSG } from '../../shared/messages';
import { api, jsonText, mailMatching, uniq } from '../support/api';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import {
  approversFor as approversOf,
  approvesAnyTime,
  chosenApprovers,
  seededSigner,
} from '../support/package-flow';

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
});

/** One approver per role the policy asks for (a dev package unless told), the initiator excluded. */
const approversFor = (type: PackageType = 'DEV_UNSIGNED') => chosenApprovers(u, type);

async function draft(type = 'DEV_UNSIGNED', stage: 'dev' | 'release' = 'dev') {
  const resource = await uploadPatch(u.designDev.token, stage);
  const pkg = await createPackage(u.designDev.token, resource.id, type);
  const dccId = await createDcc(u.designDev.token);
  return { resource, pkg, dccId };
}

async function attachAndNotify(pkgId: string, dccId: string, signer?: string) {
  expect(
    (await api(`/packages/${pkgId}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token })).status,
  ).toBe(200);
  const r = await api(`/packages/${pkgId}/notify-approvers`, {
    method: 'POST',
    token: u.designDev.token,
    body: { approvers: approversFor(), ...(signer ? { signer } : {}) },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

describe('generate package', () => {
  it('creates a DRAFT with the trimmed name, the resource fields and a header from the template', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const name = uniq('pump-fw');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_SIGNED', name);
    expect(pkg).toMatchObject({
      name,
      type: 'DEV_SIGNED',
      status: 'DRAFT',
      signed: true,
      resourceName: resource.name,
      resourceType: 'PATCH',
      resourceStage: 'DEV',
      uploadTime: resource.uploadTime,
      note: 'Fixes the pump occlusion alarm threshold',
      approvers: [],
      deliveryApprovers: [],
    });
    const list = jsonText<Package[]>(
      (await api<{ packages: string }>('/dev/packages', { token: u.lead.token })).body.packages,
    );
    expect(list.find((p) => p.id === pkg.id)?.name).toBe(name);
  });

  it("answers a duplicate name with 409 'already exists'", async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    const r = await api(`/resources/${resource.id}/generate-package`, {
      method: 'POST',
      token: u.designTest.token,
      body: { packageName: pkg.name, packageType: 'DEV_UNSIGNED', note: 'again' },
    });
    expect(r.status).toBe(409);
    expect(String(r.body.errorMessage)).toContain('already exists');
  });

  it('requires a note and a type that matches the resource stage', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const noNote = await api(`/resources/${resource.id}/generate-package`, {
      method: 'POST',
      token: u.designDev.token,
      body: { packageName: uniq('p'), packageType: 'DEV_UNSIGNED', note: '   ' },
    });
    expect(noNote.status).toBe(400);
    expect(noNote.body.errorMessage).toBe(MSG.packageNoteRequired);
    const wrongStage = await api(`/resources/${resource.id}/generate-package`, {
      method: 'POST',
      token: u.designDev.token,
      body: { packageName: uniq('p'), packageType: 'RELEASE_SIGNED', note: 'n' },
    });
    expect(wrongStage.status).toBe(400);
    const missing = await api('/resources/no-such-resource/generate-package', {
      method: 'POST',
      token: u.designDev.token,
      body: { packageName: uniq('p'), packageType: 'DEV_UNSIGNED', note: 'n' },
    });
    expect(missing.status).toBe(404);
  });
});

describe('header', () => {
  it('answers the header as JSON text and saves an edited field, recomputing the CRC', async () => {
    const { pkg } = await draft();
    const got = await api<{ header: string }>(`/packages/${pkg.id}/header`, { token: u.lead.token });
    expect(got.status).toBe(200);
    const header = jsonText<{ fields: { name: string; type: string; value: unknown }[] }>(got.body.header);
    const id = header.fields.find((f) => f.name === 'Package Id')!;
    const crcBefore = header.fields.find((f) => f.name === 'Header CRC')!.value;
    id.value = 4242;
    const saved = await api<{ header: string }>(`/packages/${pkg.id}/header`, {
      method: 'PATCH',
      token: u.designDev.token,
      body: { header: JSON.stringify(header) },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const after = jsonText<typeof header>(saved.body.header);
    expect(after.fields.find((f) => f.name === 'Package Id')!.value).toBe(4242);
    expect(after.fields.find((f) => f.name === 'Header CRC')!.value).not.toBe(crcBefore);
  });

  it('refuses a value above the field maximum and changes nothing', async () => {
    const { pkg } = await draft();
    const header = jsonText<{ fields: { name: string; value: unknown }[] }>(
      (await api<{ header: string }>(`/packages/${pkg.id}/header`, { token: u.designDev.token })).body.header,
    );
    header.fields.find((f) => f.name === 'Package Id')!.value = 4294967296;
    const r = await api(`/packages/${pkg.id}/header`, {
      method: 'PATCH',
      token: u.designDev.token,
      body: { header },
    });
    expect(r.status).toBe(400);
    expect(String(r.body.errorMessage)).toContain('Package Id');
    const again = jsonText<typeof header>(
      (await api<{ header: string }>(`/packages/${pkg.id}/header`, { token: u.designDev.token })).body.header,
    );
    expect(again.fields.find((f) => f.name === 'Package Id')!.value).not.toBe(4294967296);
  });

  it('lets only the initiator edit, and only while DRAFT', async () => {
    const { pkg, dccId } = await draft();
    const header = (await api<{ header: string }>(`/packages/${pkg.id}/header`, { token: u.designDev.token }))
      .body.header;
    expect(
      (await api(`/packages/${pkg.id}/header`, { method: 'PATCH', token: u.lead.token, body: { header } }))
        .status,
    ).toBe(403);
    await attachAndNotify(pkg.id, dccId);
    expect(
      (
        await api(`/packages/${pkg.id}/header`, {
          method: 'PATCH',
          token: u.designDev.token,
          body: { header },
        })
      ).status,
    ).toBe(409);
  });
});

describe('DCC', () => {
  it('creates a DCC and lists it as JSON text', async () => {
    const deviceId = uniq('infusion-pump');
    const id = await createDcc(u.lead.token, deviceId);
    const list = jsonText<Dcc[]>((await api<{ dcc: string }>('/dcc', { token: u.designDev.token })).body.dcc);
    expect(list.find((d) => d.id === id)).toMatchObject({
      deviceId,
      telemetryType: 'TelB',
      messageLimit: 64,
      deviceLimit: 4096,
    });
  });

  it.each([
    [{ deviceId: '' }, 'Device ID is required'],
    [{ messageLimit: 15 }, MSG.dccMessageLimit],
    [{ deviceLimit: 32 }, MSG.dccDeviceLimit],
    [{ messageLimit: '12a' }, 'Limits accept only numbers'],
    [{ telemetryType: 'WiFi' }, 'Telemetry type must be TelA, TelB or BLE'],
  ])('refuses %o with the spec message', async (override, message) => {
    const r = await api('/dcc', {
      method: 'POST',
      token: u.lead.token,
      body: { deviceId: 'dev-1', telemetryType: 'TelA', messageLimit: 64, deviceLimit: 64, ...override },
    });
    expect(r.status).toBe(400);
    expect(r.body.errorMessage).toBe(message);
  });

  it('attaches only an existing DCC, only by the initiator', async () => {
    const { pkg, dccId } = await draft();
    expect(
      (await api(`/packages/${pkg.id}/dcc/no-such-dcc`, { method: 'POST', token: u.designDev.token })).status,
    ).toBe(404);
    expect(
      (await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.lead.token })).status,
    ).toBe(403);
    const ok = await api<{ package: string }>(`/packages/${pkg.id}/dcc/${dccId}`, {
      method: 'POST',
      token: u.designDev.token,
    });
    expect(jsonText<Package>(ok.body.package).dccId).toBe(dccId);
  });
});

describe('approvers and notify', () => {
  it('offers one list per role without the initiator, and the signers when asked', async () => {
    const { pkg } = await draft('DEV_SIGNED');
    const r = await api<{ approvers: string; signers: string }>(
      `/packages/${pkg.id}/approvers?signers=true`,
      { token: u.designDev.token },
    );
    expect(r.status).toBe(200);
    const approvers = jsonText<Record<string, { id: string }[]>>(r.body.approvers);
    // the roles the policy asks for that have holders (the seeded ones; the initiator's own role has none else)
    expect(Object.keys(approvers).sort()).toEqual(
      approversOf(u, pkg.type)
        .map((a) => a.role)
        .sort(),
    );
    expect(
      Object.values(approvers)
        .flat()
        .map((x) => x.id),
    ).not.toContain(u.designDev.id);
    expect(jsonText<{ id: string }[]>(r.body.signers).map((s) => s.id)).toContain(seededSigner(u).id);
  });

  it('refuses to notify before a DCC is attached', async () => {
    const { pkg } = await draft();
    const r = await api(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: { approvers: approversFor() },
    });
    expect(r.status).toBe(409);
    expect(String(r.body.errorMessage)).toContain('Attach a DCC');
  });

  it('needs a signer for a signed package and refuses one for an unsigned package', async () => {
    const signed = await draft('DEV_SIGNED');
    await api(`/packages/${signed.pkg.id}/dcc/${signed.dccId}`, { method: 'POST', token: u.designDev.token });
    const noSigner = await api(`/packages/${signed.pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: { approvers: approversFor() },
    });
    expect(noSigner.status).toBe(400);
    expect(noSigner.body.errorMessage).toBe('Choose a signer for a signed package');
    const unsigned = await draft();
    await api(`/packages/${unsigned.pkg.id}/dcc/${unsigned.dccId}`, {
      method: 'POST',
      token: u.designDev.token,
    });
    const extra = await api(`/packages/${unsigned.pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: { approvers: approversFor(), signer: seededSigner(u).id },
    });
    expect(extra.status).toBe(400);
  });

  it('refuses the initiator as an approver and a missing role', async () => {
    const { pkg, dccId } = await draft();
    await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token });
    const self = await api(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: { approvers: [...approversFor(), { role: 'DESIGN_ENGINEER_DEV', id: u.designDev.id }] },
    });
    expect(self.status).toBe(400);
    const missing = await api(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: { approvers: approversFor().slice(1) },
    });
    expect(missing.status).toBe(400);
    expect(String(missing.body.errorMessage)).toContain(`${approversFor()[0]!.role} missing`);
  });

  it('mails every approver the package name, the note and a link, and lists the package for them only', async () => {
    const { pkg, dccId } = await draft();
    await attachAndNotify(pkg.id, dccId);
    for (const who of approversOf(u, pkg.type)) {
      const mail = await mailMatching(who.email, (m) => m.subject.includes(pkg.name));
      expect(mail?.text).toContain('Fixes the pump occlusion alarm threshold');
      // the link opens the package itself (the SPA picks the page), not the approval list
      expect(mail?.text).toContain(`/packages/open/${pkg.id}`);
      expect(mail?.text).toMatch(/http:\/\/localhost:\d+\/packages\/open\//);
      const list = jsonText<Package[]>(
        (await api<{ packages: string }>('/dev/packages/approval', { token: who.token })).body.packages,
      );
      expect(list.map((p) => p.id)).toContain(pkg.id);
    }
    const initiatorList = jsonText<Package[]>(
      (await api<{ packages: string }>('/dev/packages/approval', { token: u.designDev.token })).body.packages,
    );
    expect(initiatorList.map((p) => p.id)).not.toContain(pkg.id);
  });
});

describe('approval decisions', () => {
  it("answers 202 'waiting for other approvals' until the last approver, and refuses a second vote", async () => {
    const { pkg, dccId } = await draft('DEV_SIGNED');
    await attachAndNotify(pkg.id, dccId, seededSigner(u).id);
    // the approvers in the policy's order (decision 272)
    const [firstVoter, ...others] = approversOf(u, pkg.type);
    const lastVoter = others.pop()!;
    const first = await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: firstVoter!.token });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ outcome: 'WAITING_FOR_APPROVALS', message: MSG.approvedWaiting });
    expect(
      (await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: firstVoter!.token })).status,
    ).toBe(409);
    expect(
      (await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: u.designDev.token })).status,
    ).toBe(403);
    for (const who of others) {
      expect((await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: who.token })).status).toBe(
        202,
      );
    }
    const last = await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: lastVoter.token });
    expect(last.status).toBe(200);
    expect(last.body).toMatchObject({ outcome: 'WAITING_FOR_SIGNING', message: MSG.approvedWaitingSigning });
    const signing = jsonText<Package[]>(
      (await api<{ packages: string }>('/dev/packages/signing', { token: seededSigner(u).token })).body
        .packages,
    );
    expect(signing.map((p) => p.id)).toContain(pkg.id);
  });

  it('rejects with a reason; the initiator is mailed and the others can no longer approve', async () => {
    const { pkg, dccId } = await draft();
    await attachAndNotify(pkg.id, dccId);
    // one approver rejects (a rejection may come at any time), another then tries to approve
    const [other, rejecter] = approversOf(u, pkg.type);
    const empty = await api(`/packages/${pkg.id}/reject`, {
      method: 'POST',
      token: rejecter!.token,
      body: { 'rejection-reason': ' ' },
    });
    expect(empty.status).toBe(400);
    const r = await api<{ package: string; message: string }>(`/packages/${pkg.id}/reject`, {
      method: 'POST',
      token: rejecter!.token,
      body: { 'rejection-reason': 'Header CRC region overlaps the installer' },
    });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(MSG.rejectionConfirmed);
    const p = jsonText<Package>(r.body.package);
    expect(p.status).toBe('REJECTED');
    expect(p.rejectionNote).toBe('Header CRC region overlaps the installer');
    expect(p.approvers.find((a) => a.user.id === rejecter!.id)).toMatchObject({
      rejected: true,
      rejectionNote: 'Header CRC region overlaps the installer',
    });
    expect(
      await mailMatching(u.designDev.email, (m) => m.subject === `Approval rejected: ${pkg.name}`),
    ).toBeDefined();
    expect((await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: other!.token })).status).toBe(
      409,
    );
    const list = jsonText<Package[]>(
      (await api<{ packages: string }>('/dev/packages/approval', { token: other!.token })).body.packages,
    );
    expect(list.map((x) => x.id)).not.toContain(pkg.id);
  });

  it('counts concurrent approvals exactly once each and moves the package on once', async () => {
    const { pkg, dccId } = await draft('DEV_SIGNED');
    await attachAndNotify(pkg.id, dccId, seededSigner(u).id);
    // every approval the policy lets go at any time races; any that waits for others (an order) follows
    const voters = approversOf(u, pkg.type);
    const waits = (v: { role: NonAdminRole }) => !approvesAnyTime(v.role);
    const approve = (who: { token: string }) =>
      api(`/packages/${pkg.id}/approve`, { method: 'POST', token: who.token });
    const results = await Promise.all(voters.filter((v) => !waits(v)).map(approve));
    for (const v of voters.filter(waits)) results.push(await approve(v));
    expect(results.filter((r) => r.status === 202)).toHaveLength(voters.length - 1);
    expect(results.filter((r) => r.body.outcome === 'WAITING_FOR_SIGNING')).toHaveLength(1);
    const history = jsonText<{ action: string }[]>(
      (await api<{ history: string }>(`/packages/${pkg.id}/history`, { token: u.lead.token })).body.history,
    );
    expect(history.filter((h) => h.action === 'APPROVED')).toHaveLength(voters.length);
    expect(history.filter((h) => h.action === 'FULLY_APPROVED')).toHaveLength(1);
  });
});

describe('admin packages and DCC', () => {
  it('lists all packages and deletes one', async () => {
    const { pkg } = await draft();
    const list = jsonText<Package[]>(
      (await api<{ packages: string }>('/admin/packages', { token: u.admin.token })).body.packages,
    );
    expect(list.map((p) => p.id)).toContain(pkg.id);
    const del = await api('/admin/packages', { method: 'DELETE', token: u.admin.token, body: [pkg.id] });
    expect(del.status).toBe(200);
    expect(del.body.message).toBe(MSG.deleted);
    expect((await api(`/packages/${pkg.id}/header`, { token: u.lead.token })).status).toBe(404);
  });

  it('refuses to delete a DCC attached to a package, then deletes it once the package is gone', async () => {
    const { pkg, dccId } = await draft();
    await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token });
    const refused = await api('/admin/dcc', { method: 'DELETE', token: u.admin.token, body: [dccId] });
    expect(refused.status).toBe(409);
    expect(String(refused.body.errorMessage)).toContain(pkg.name);
    await api('/admin/packages', { method: 'DELETE', token: u.admin.token, body: [pkg.id] });
    expect((await api('/admin/dcc', { method: 'DELETE', token: u.admin.token, body: [dccId] })).status).toBe(
      200,
    );
    const list = jsonText<Dcc[]>(
      (await api<{ dcc: string }>('/admin/dcc', { token: u.admin.token })).body.dcc,
    );
    expect(list.map((d) => d.id)).not.toContain(dccId);
  });
});
