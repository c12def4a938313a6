import { beforeAll, describe, expect, it } from 'vitest';
import type { Package, PackageSource } from '../../shared/api/contracts/packages';
import { defaultPackageName } from '../../shared/domain/package-names';
import { PACKAGE_ERR } from '../../shared/domain/package-texts';
import { api, jsonText, uniq } from '../support/api';
import { createDcc, createPackage, seededUsers, uploadModel, uploadPatch } from '../support/fixtures';
import { chosenApprovers, headerOf } from '../support/package-flow';

/**
 * "never lose, never re-type" over HTTP against the local stack: the header editor's autosave
 * (PATCH …/header as the user types), step 1 of a draft again (PATCH /packages/{id}), and a new package
 * started from an earlier one (GET /resources/{id}/package-sources, generatePackage's fromPackageId).
 */

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
});

type Field = { name: string; type: string; value: unknown };

async function saveHeader(id: string, token: string, edit: (fields: Field[]) => void) {
  const header = await headerOf(id, u.designDev.token);
  edit(header.fields as Field[]);
  return api<{ header: string; errorMessage: string }>(`/packages/${id}/header`, {
    method: 'PATCH',
    token,
    body: { header: JSON.stringify(header) },
  });
}
const setPackageId = (n: number) => (fields: Field[]) => {
  (fields.find((f) => f.name === 'Package Id') as Field).value = n;
};
const headerValue = async (id: string, name: string) =>
  (await headerOf(id, u.designDev.token)).fields.find((f) => f.name === name)?.value;

async function attachAndNotify(pkg: Package, dccId: string) {
  const att = await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token });
  expect(att.status).toBe(200);
  const n = await api(`/packages/${pkg.id}/notify-approvers`, {
    method: 'POST',
    token: u.designDev.token,
    body: { approvers: chosenApprovers(u, pkg.type) },
  });
  expect(n.status).toBe(200);
}

async function history(id: string) {
  const h = await api<{ history: string }>(`/packages/${id}/history`, { token: u.admin.token });
  return jsonText<{ action: string; meaning: string; details?: Record<string, unknown> }[]>(h.body.history);
}

const sourcesOf = (resourceId: string, token = u.designDev.token) =>
  api<{ packages: string; proposedId: string | null; freeName: string; errorMessage: string }>(
    `/resources/${resourceId}/package-sources`,
    { token },
  );

const generate = (resourceId: string, body: Record<string, unknown>, token = u.designDev.token) =>
  api<{ package: string; errorMessage: string }>(`/resources/${resourceId}/generate-package`, {
    method: 'POST',
    token,
    body: { packageType: 'DEV_UNSIGNED', note: 'Second attempt after the rejection', ...body },
  });

describe('header autosave: every save is the draft on the server', () => {
  it('keeps each save, audited with the values that changed', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    for (const n of [1, 12, 123]) {
      const r = await saveHeader(pkg.id, u.designDev.token, setPackageId(n));
      expect(r.status).toBe(200);
    }
    expect(await headerValue(pkg.id, 'Package Id')).toBe(123);
    const edits = (await history(pkg.id)).filter((e) => e.action === 'HEADER_EDITED');
    expect(edits).toHaveLength(3);
    expect(edits[2]?.details?.fields).toEqual(['Package Id']);
  });

  it('records nothing for a save of the unchanged header (Continue twice): one event', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    const first = await saveHeader(pkg.id, u.designDev.token, setPackageId(77));
    const second = await saveHeader(pkg.id, u.designDev.token, setPackageId(77));
    expect([first.status, second.status]).toEqual([200, 200]);
    // the unchanged save still answers the header, as a change does
    expect(jsonText(second.body.header)).toEqual(jsonText(first.body.header));
    const edits = (await history(pkg.id)).filter((e) => e.action === 'HEADER_EDITED');
    expect(edits).toHaveLength(1);
    expect(edits[0]?.details?.fields).toEqual(['Package Id']);
    // and a real change after it is recorded again
    expect((await saveHeader(pkg.id, u.designDev.token, setPackageId(78))).status).toBe(200);
    expect((await history(pkg.id)).filter((e) => e.action === 'HEADER_EDITED')).toHaveLength(2);
  });

  it('is refused to anyone but the initiator, and once the package left DRAFT; nothing changes', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    expect((await saveHeader(pkg.id, u.designDev.token, setPackageId(5))).status).toBe(200);

    const other = await saveHeader(pkg.id, u.designTest.token, setPackageId(6));
    expect(other.status).toBe(403);
    expect(other.body.errorMessage).toBe(PACKAGE_ERR.notInitiator('edit the header'));
    const admin = await saveHeader(pkg.id, u.admin.token, setPackageId(6));
    expect(admin.status).toBe(403);

    await attachAndNotify(pkg, await createDcc(u.designDev.token));
    const late = await saveHeader(pkg.id, u.designDev.token, setPackageId(7));
    expect(late.status).toBe(409);
    expect(late.body.errorMessage).toBe(PACKAGE_ERR.notDraft('edit the header'));
    expect(await headerValue(pkg.id, 'Package Id')).toBe(5);

    const unknown = await api(`/packages/${uniq('nope')}/header`, {
      method: 'PATCH',
      token: u.designDev.token,
      body: { header: '{"fields":[]}' },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('step 1 again updates the draft (PATCH /packages/{id})', () => {
  const update = (id: string, body: Record<string, unknown>, token = u.designDev.token) =>
    api<{ package: string; errorMessage: string }>(`/packages/${id}`, { method: 'PATCH', token, body });

  it('changes name, note and sign flag of the same draft; its own name never clashes; the header keeps its values', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const name = uniq('draft');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED', name);
    expect((await saveHeader(pkg.id, u.designDev.token, setPackageId(4242))).status).toBe(200);
    const typeBefore = await headerValue(pkg.id, 'Type');

    const same = await update(pkg.id, { packageName: name, packageType: 'DEV_UNSIGNED', note: 'Same name' });
    expect(same.status).toBe(200);
    const renamed = await update(pkg.id, {
      packageName: `${name}-signed`,
      packageType: 'DEV_SIGNED',
      note: 'Now signed',
    });
    expect(renamed.status).toBe(200);
    const p = jsonText<Package>(renamed.body.package);
    expect(p).toMatchObject({
      id: pkg.id,
      name: `${name}-signed`,
      type: 'DEV_SIGNED',
      signed: true,
      note: 'Now signed',
      status: 'DRAFT',
    });
    expect(await headerValue(pkg.id, 'Package Id')).toBe(4242);
    expect(await headerValue(pkg.id, 'Type')).not.toBe(typeBefore);
    // the old name is free again, the new one is claimed
    const reuse = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED', name);
    expect(reuse.name).toBe(name);
    const clash = await generate(resource.id, { packageName: `${name}-signed` });
    expect(clash.status).toBe(409);
    expect((await history(pkg.id)).map((e) => e.action)).toContain('DRAFT_EDITED');
  });

  it('refuses bad inputs, other people, another stage, a taken name and a package that left DRAFT', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    const taken = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    const ok = { packageName: pkg.name, packageType: 'DEV_UNSIGNED', note: 'fine' };

    expect((await update(pkg.id, { ...ok, note: '  ' })).status).toBe(400);
    expect((await update(pkg.id, { ...ok, packageName: '' })).status).toBe(400);
    expect((await update(pkg.id, { ...ok, packageType: 'BOGUS' })).status).toBe(400);
    const stage = await update(pkg.id, { ...ok, packageType: 'RELEASE_SIGNED' });
    expect(stage.status).toBe(400);
    expect(stage.body.errorMessage).toBe(PACKAGE_ERR.wrongStage('DEV'));
    const clash = await update(pkg.id, { ...ok, packageName: taken.name.toUpperCase() });
    expect(clash.status).toBe(409);
    expect(clash.body.errorMessage).toBe(PACKAGE_ERR.nameTaken(taken.name.toUpperCase()));
    const other = await update(pkg.id, ok, u.designTest.token);
    expect(other.status).toBe(403);
    expect(other.body.errorMessage).toBe(PACKAGE_ERR.notInitiator('change the draft'));
    expect((await update(pkg.id, ok, u.admin.token)).status).toBe(403);
    expect((await update(uniq('nope'), ok)).status).toBe(404);

    await attachAndNotify(pkg, await createDcc(u.designDev.token));
    const late = await update(pkg.id, { ...ok, note: 'too late' });
    expect(late.status).toBe(409);
    const now = await api<{ package: string }>(`/packages/${pkg.id}/details`, { token: u.designDev.token });
    expect(jsonText<Package>(now.body.package).note).toBe(pkg.note);
  });
});

describe('start from a previous package', () => {
  it('after a rejection: proposes the rejected package and a free name; the copy carries header values and DCC', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const base = defaultPackageName(resource);
    const first = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED', base);
    expect((await saveHeader(first.id, u.designDev.token, setPackageId(31337))).status).toBe(200);
    const dccId = await createDcc(u.designDev.token);
    await attachAndNotify(first, dccId);
    const rej = await api(`/packages/${first.id}/reject`, {
      method: 'POST',
      token: u.lead.token,
      body: { 'rejection-reason': 'Package Id must be 31338' },
    });
    expect(rej.status).toBe(200);

    const s = await sourcesOf(resource.id);
    expect(s.status).toBe(200);
    expect(s.body.proposedId).toBe(first.id);
    expect(s.body.freeName).toBe(`${base}_2`);
    const listed = jsonText<PackageSource[]>(s.body.packages);
    expect(listed[0]).toMatchObject({ id: first.id, status: 'REJECTED', name: base });

    const r = await generate(resource.id, { packageName: s.body.freeName, fromPackageId: first.id });
    expect(r.status).toBe(201);
    const copy = jsonText<Package>(r.body.package);
    expect(copy.status).toBe('DRAFT');
    expect(copy.dccId).toBe(dccId);
    expect(copy.copiedFrom).toMatchObject({
      id: first.id,
      name: base,
      status: 'REJECTED',
      fields: ['Package Id'],
      dcc: { dccId },
    });
    expect(await headerValue(copy.id, 'Package Id')).toBe(31337);
    const events = await history(copy.id);
    expect(events.map((e) => e.action)).toEqual(['PACKAGE_CREATED', 'PACKAGE_STARTED_FROM']);
    expect(events[1]?.details).toMatchObject({ fromPackageId: first.id, dccId });
    // the source is untouched
    const src = await api<{ package: string }>(`/packages/${first.id}/details`, { token: u.designDev.token });
    expect(jsonText<Package>(src.body.package).status).toBe('REJECTED');
  });

  it('refuses a source that does not exist or is of another resource type, and bad inputs; nothing is created', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const model = await uploadModel(u.designDev.token, 'dev');
    const modelPkg = await createPackage(u.designDev.token, model.id, 'DEV_UNSIGNED');
    const name = uniq('refused');

    const missing = await generate(resource.id, { packageName: name, fromPackageId: 'no-such-package' });
    expect(missing.status).toBe(400);
    expect(missing.body.errorMessage).toBe(PACKAGE_ERR.sourceNotFound('no-such-package'));
    const empty = await generate(resource.id, { packageName: name, fromPackageId: '' });
    expect(empty.status).toBe(400);
    const long = await generate(resource.id, { packageName: name, fromPackageId: 'x'.repeat(65) });
    expect(long.status).toBe(400);
    const notText = await generate(resource.id, { packageName: name, fromPackageId: 42 });
    expect(notText.status).toBe(400);
    const otherType = await generate(resource.id, { packageName: name, fromPackageId: modelPkg.id });
    expect(otherType.status).toBe(400);
    expect(otherType.body.errorMessage).toBe(PACKAGE_ERR.sourceOtherType('MODEL', 'PATCH'));
    // the name was never claimed: every refusal above changed nothing
    const s = await sourcesOf(resource.id);
    expect(jsonText<PackageSource[]>(s.body.packages)).toEqual([]);
    expect(s.body.proposedId).toBeNull();
    expect((await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED', name)).name).toBe(name);
  });

  it('package-sources: 404 for an unknown resource, refused to admins and without a token', async () => {
    expect((await sourcesOf('no-such-resource')).status).toBe(404);
    const resource = await uploadPatch(u.designDev.token, 'dev');
    expect((await sourcesOf(resource.id, u.admin.token)).status).toBe(403);
    expect((await api(`/resources/${resource.id}/package-sources`)).status).toBe(401);
  });
});
