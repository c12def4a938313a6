import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { localBucket } from '../../infra/local/local-aws';
import type { Package } from '../../shared/api/contracts/packages';
import { PACKAGE_ERR } from '../../shared/domain/package-texts';
import { api, jsonText, localDynamo, localTable } from '../support/api';
import { createPackage, seededUsers, uploadModel, uploadPatch } from '../support/fixtures';
import {
  approveAllButLast,
  chosenApprovers,
  downloadXml,
  lastApprover,
  lastSteps,
  portalKey,
  prepareAndNotify,
  runVerifier,
  waitForStatus,
} from '../support/package-flow';
import { s3At } from '../support/store';

/**
 * every byte that ships is pinned at review (decisions 190–193). The model's metadata file (its
 * patch config) is pinned like the payload: SHA-256 and size recorded at upload, shown to reviewers on the
 * package, checked at generation; a file swapped in storage after approval is refused and nothing is
 * signed. The payload's own pin is checked the same way. The XML carries the DCC values the reviewers saw,
 * and an unsigned release package is never sent to delivery.
 */

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
});

const RESOURCES = localBucket('resources');
const ARTEFACTS = localBucket('artefacts');
const METADATA = JSON.stringify({ modelName: 'pinned-model', version: '1.0.0' });
// the same length: only the digest can tell the swap
const SWAPPED = JSON.stringify({ modelName: 'pinned-model', version: '6.6.6' });
const sha = (b: string | Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The resource's stored metadata file, or (metadata: false) its payload. */
async function storedObject(resourceId: string, metadata: boolean) {
  const s3 = s3At(inject('s3Endpoint'));
  const listed = await s3.send(
    new ListObjectsV2Command({ Bucket: RESOURCES, Prefix: `resources/${resourceId}/` }),
  );
  const key = listed.Contents?.map((c) => c.Key!).find((k) => k.includes('/metadata/') === metadata);
  if (!key) throw new Error(`no ${metadata ? 'metadata' : 'payload'} object for ${resourceId}`);
  return { s3, key };
}

const metadataObject = (resourceId: string) => storedObject(resourceId, true);
const payloadObject = (resourceId: string) => storedObject(resourceId, false);

async function put(key: string, body: string | Uint8Array) {
  await s3At(inject('s3Endpoint')).send(new PutObjectCommand({ Bucket: RESOURCES, Key: key, Body: body }));
}

async function detail(id: string): Promise<Package> {
  const r = await api<{ package: string }>(`/packages/${id}/details`, { token: u.lead.token });
  if (r.status !== 200) throw new Error(`details: ${r.status} ${JSON.stringify(r.body)}`);
  return jsonText<Package>(r.body.package);
}

async function artefactsOf(id: string) {
  const left = await s3At(inject('s3Endpoint')).send(
    new ListObjectsV2Command({ Bucket: ARTEFACTS, Prefix: `packages/${id}/` }),
  );
  return left.Contents ?? [];
}

async function history(id: string) {
  const r = await api<{ history: string }>(`/packages/${id}/history`, { token: u.lead.token });
  return jsonText<{ action: string; details?: Record<string, unknown> }[]>(r.body.history);
}

describe("the model's metadata file is pinned at review (decision 190)", () => {
  it('records its SHA-256 and size at upload and on the package, and refuses a file swapped after approval: nothing is signed', async () => {
    const resource = await uploadModel(u.designDev.token, 'release', { metadata: METADATA });
    const pkg = await createPackage(u.designDev.token, resource.id, 'RELEASE_SIGNED');
    // the reviewers' copy: beside the payload's digest
    expect(pkg.resourceFile).toMatchObject({
      sha256: resource.sha256,
      metadataSizeBytes: Buffer.byteLength(METADATA),
      metadataSha256: sha(METADATA),
    });
    expect((await history(pkg.id)).at(0)?.details).toMatchObject({ metadataSha256: sha(METADATA) });

    await prepareAndNotify(u, pkg);
    await approveAllButLast(u, pkg);
    const last = await api(`/packages/${pkg.id}/approve`, {
      method: 'POST',
      token: lastApprover(u, pkg.type).token,
    });
    expect(last.body.outcome).toBe('WAITING_FOR_SIGNING');

    // after approval, someone with write access to the bucket replaces the metadata file
    const { s3, key } = await metadataObject(resource.id);
    const original = Buffer.from(
      await (
        await s3.send(new GetObjectCommand({ Bucket: RESOURCES, Key: key }))
      ).Body!.transformToByteArray(),
    );
    expect(original.toString()).toBe(METADATA);
    await put(key, SWAPPED);

    const signing = await api(`/packages/${pkg.id}/generate-signed`, {
      method: 'POST',
      token: u.release.token,
    });
    expect([signing.status, signing.body.outcome]).toEqual([202, 'GENERATING']);
    const failed = await waitForStatus(pkg, u.lead.token, 'AWAITING_SIGNATURE', {
      until: (p) => p.generation?.state === 'FAILED',
    });
    expect(failed.generation?.reason).toBe(
      `The metadata file ${resource.name}.json is not the one reviewed: it is ${Buffer.byteLength(SWAPPED)} bytes with SHA-256 ${sha(SWAPPED)}, not ${Buffer.byteLength(METADATA)} bytes with SHA-256 ${sha(METADATA)} as recorded at upload (after 3 attempts)`,
    );
    // nothing was written, nothing signed, nothing to download
    expect(await artefactsOf(pkg.id)).toEqual([]);
    expect((await api(`/packages/${pkg.id}`, { token: u.lead.token })).status).toBe(409);
    const events = await history(pkg.id);
    expect(events.at(-1)).toMatchObject({
      action: 'GENERATION_FAILED',
      details: { reason: failed.generation?.reason },
    });
    expect(events.map((e) => e.action)).not.toContain('PACKAGE_GENERATED');

    // the reviewed file back: the signer's retry signs what was reviewed, and it verifies
    await put(key, original);
    const retried = await api(`/packages/${pkg.id}/retry-generation`, {
      method: 'POST',
      token: u.release.token,
    });
    expect(retried.status, JSON.stringify(retried.body)).toBe(202);
    await waitForStatus(pkg, u.lead.token, 'SIGNED');
    const { file, dir } = await downloadXml(pkg.id, u.lead.token);
    const v = runVerifier(file, await portalKey(dir));
    expect(v.out).toContain('VERDICT: VALID');
    expect(readFileSync(file, 'utf8')).toContain(`sha256="${sha(METADATA)}"`);
  }, 180_000);

  it('pins a model uploaded before the digest was recorded when its package is created', async () => {
    const resource = await uploadModel(u.designDev.token, 'dev', { metadata: METADATA });
    const ddb = await localDynamo();
    await ddb.send(
      new UpdateCommand({
        TableName: localTable('resources'),
        Key: { pk: `RES#${resource.id}` },
        UpdateExpression: 'REMOVE metadataSha256, metadataSizeBytes',
      }),
    );
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    expect(pkg.resourceFile).toMatchObject({
      metadataSizeBytes: Buffer.byteLength(METADATA),
      metadataSha256: sha(METADATA),
    });
    // and that pin is what generation checks: a later swap is refused
    await prepareAndNotify(u, pkg);
    await approveAllButLast(u, pkg);
    const { key } = await metadataObject(resource.id);
    await put(key, SWAPPED);
    const decided = await api(`/packages/${pkg.id}/approve`, {
      method: 'POST',
      token: lastApprover(u, pkg.type).token,
    });
    expect(decided.status).toBe(202);
    const failed = await waitForStatus(pkg, u.lead.token, 'PENDING_APPROVAL', {
      until: (p) => p.generation?.state === 'FAILED',
    });
    expect(failed.generation?.reason).toMatch(/is not the one reviewed: .* as recorded at upload/);
    expect(await artefactsOf(pkg.id)).toEqual([]);
  }, 120_000);

  it('refuses to generate a model package whose metadata was pinned nowhere (sent for review before digests were recorded)', async () => {
    const resource = await uploadModel(u.designDev.token, 'dev', { metadata: METADATA });
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    const ddb = await localDynamo();
    await ddb.send(
      new UpdateCommand({
        TableName: localTable('resources'),
        Key: { pk: `RES#${resource.id}` },
        UpdateExpression: 'REMOVE metadataSha256',
      }),
    );
    await ddb.send(
      new UpdateCommand({
        TableName: localTable('packages'),
        Key: { pk: `PKG#${pkg.id}`, sk: 'PKG' },
        UpdateExpression: 'REMOVE resourceFile.metadataSha256, resourceFile.metadataSizeBytes',
      }),
    );
    expect((await detail(pkg.id)).resourceFile?.metadataSha256).toBeUndefined();
    await prepareAndNotify(u, pkg);
    await approveAllButLast(u, pkg);
    await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: lastApprover(u, pkg.type).token });
    const failed = await waitForStatus(pkg, u.lead.token, 'PENDING_APPROVAL', {
      until: (p) => p.generation?.state === 'FAILED',
    });
    expect(failed.generation?.reason).toBe(
      `The metadata file ${resource.name}.json was not pinned when this package was reviewed (the package was created before metadata digests were recorded); create the package again from its resource (after 3 attempts)`,
    );
    expect(await artefactsOf(pkg.id)).toEqual([]);
  }, 120_000);
});

describe('the payload stays pinned the same way', () => {
  it('refuses a payload swapped after approval (same size, other bytes): nothing is generated', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev', 4096);
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    await prepareAndNotify(u, pkg);
    await approveAllButLast(u, pkg);
    const { key } = await payloadObject(resource.id);
    await put(key, Buffer.alloc(4096, 7));
    await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: lastApprover(u, pkg.type).token });
    const failed = await waitForStatus(pkg, u.lead.token, 'PENDING_APPROVAL', {
      until: (p) => p.generation?.state === 'FAILED',
    });
    expect(failed.generation?.reason).toMatch(
      new RegExp(`not ${resource.sha256} as recorded at upload \\(after 3 attempts\\)$`),
    );
    expect(await artefactsOf(pkg.id)).toEqual([]);
  }, 120_000);
});

describe('the DCC the package carries is the one the reviewers saw (decision 192)', () => {
  it('generates from the copy recorded on the package, whatever the DCC table says later', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    await prepareAndNotify(u, pkg);
    const reviewed = await detail(pkg.id);
    expect(reviewed.dcc).toBeDefined();
    // an admin cannot delete a DCC in use
    const del = await api<{ errorMessage: string }>('/admin/dcc', {
      method: 'DELETE',
      token: u.admin.token,
      body: [reviewed.dccId],
    });
    expect(del.status, JSON.stringify(del.body)).toBe(409);
    // the DCC row changed behind the portal's back after review
    const ddb = await localDynamo();
    await ddb.send(
      new UpdateCommand({
        TableName: localTable('dcc'),
        Key: { pk: `DCC#${reviewed.dccId}` },
        UpdateExpression: 'SET deviceId = :d, messageLimit = :m',
        ExpressionAttributeValues: { ':d': 'EVIL-DEVICE', ':m': 1 },
      }),
    );
    await approveAllButLast(u, pkg);
    await lastSteps(u, pkg);
    const { file } = await downloadXml(pkg.id, u.lead.token);
    const xml = readFileSync(file, 'utf8');
    expect(xml).toContain(`deviceId="${reviewed.dcc!.deviceId}"`);
    expect(xml).toContain(`messageLimit="${reviewed.dcc!.messageLimit}"`);
    expect(xml).not.toContain('EVIL-DEVICE');
  }, 120_000);
});

describe('an unsigned release package is never sent to delivery (decision 193)', () => {
  it('answers 409 saying devices refuse it, and changes nothing', async () => {
    const resource = await uploadPatch(u.designDev.token, 'release');
    const pkg = await createPackage(u.designDev.token, resource.id, 'RELEASE_UNSIGNED');
    await prepareAndNotify(u, pkg);
    await approveAllButLast(u, pkg);
    await lastSteps(u, pkg);
    const before = await detail(pkg.id);
    expect(before.status).toBe('APPROVED');
    const r = await api<{ errorMessage: string }>(`/delivery/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.release.token,
      // the policy's delivery approvers but the starter: a valid choice, refused for the package's type
      body: { approvers: chosenApprovers(u, pkg.type, 'delivery').filter((a) => a.id !== u.release.id) },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(r.body.errorMessage).toBe(PACKAGE_ERR.unsignedNotDeliverable);
    const after = await detail(pkg.id);
    expect([after.status, after.deliveryApprovers]).toEqual(['APPROVED', []]);
    expect((await history(pkg.id)).map((e) => e.action)).not.toContain('DELIVERY_STARTED');
    const inDelivery = await api<{ packages: string }>('/deliver/packages/approval', { token: u.lead.token });
    expect(inDelivery.status).toBe(200);
    expect(jsonText<Package[]>(inDelivery.body.packages).map((p) => p.id)).not.toContain(pkg.id);
  }, 120_000);
});
