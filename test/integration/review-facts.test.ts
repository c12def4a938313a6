import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { api, jsonText } from '../support/api';
import { createPackage, seededUsers, uploadModel, uploadPatch } from '../support/fixtures';
import { chosenApprovers } from '../support/package-flow';

/**
 * Decision 150: the package answer carries what approvers certify — the resource
 * file's name, size and SHA-256 (and a model's metadata) and the attached DCC's values — so the review
 * page shows them. Before, a package named only its resource and its DCC id.
 */

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
});

async function attach(pkg: Package, deviceId: string) {
  const dcc = await api<{ dccUuid: string }>('/dcc', {
    method: 'POST',
    token: u.designDev.token,
    body: { deviceId, telemetryType: 'BLE', messageLimit: 32, deviceLimit: 2048 },
  });
  expect(dcc.status).toBe(201);
  const att = await api<{ package: string }>(`/packages/${pkg.id}/dcc/${dcc.body.dccUuid}`, {
    method: 'POST',
    token: u.designDev.token,
  });
  expect(att.status).toBe(200);
  return jsonText<Package>(att.body.package);
}

describe('the package answer carries the review facts', () => {
  it('a patch package: file name, size, SHA-256 from creation on; DCC values once attached; in the approver list too', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev', 3000);
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    expect(pkg.resourceFile).toEqual({
      fileName: resource.fileName,
      sizeBytes: 3000,
      sha256: resource.sha256,
    });
    expect(resource.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(pkg.dcc).toBeUndefined();

    const deviceId = `review-${pkg.id.slice(0, 8)}`;
    const attached = await attach(pkg, deviceId);
    expect(attached.dcc).toEqual({ deviceId, telemetryType: 'BLE', messageLimit: 32, deviceLimit: 2048 });

    const n = await api(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: { approvers: chosenApprovers(u, pkg.type) },
    });
    expect(n.status).toBe(200);
    const list = await api<{ packages: string }>('/dev/packages/approval', { token: u.lead.token });
    expect(list.status).toBe(200);
    const seen = jsonText<Package[]>(list.body.packages).find((p) => p.id === pkg.id);
    expect(seen?.resourceFile?.sha256).toBe(resource.sha256);
    expect(seen?.resourceFile?.sizeBytes).toBe(3000);
    expect(seen?.dcc?.deviceId).toBe(deviceId);
    // nothing of the storage layout leaks
    expect(JSON.stringify(seen)).not.toContain('objectKey');
  });

  it('a model package adds the model metadata', async () => {
    const metadata = JSON.stringify({ modelName: 'review-spotter', version: '3.1.4' });
    const resource = await uploadModel(u.designDev.token, 'dev', { size: 4096, metadata });
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    expect(pkg.resourceFile).toEqual({
      fileName: resource.fileName,
      sizeBytes: 4096,
      sha256: resource.sha256,
      modelName: 'review-spotter',
      modelVersion: '3.1.4',
      // the metadata file as pinned for review (decision 190)
      metadataSizeBytes: Buffer.byteLength(metadata),
      metadataSha256: createHash('sha256').update(metadata).digest('hex'),
    });
  });
});
