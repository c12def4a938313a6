import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { localBucket } from '../../infra/local/local-aws';
import type { Package } from '../../shared/api/contracts/packages';
import { api, jsonText, localDynamo, localTable } from '../support/api';
import { createPackage, seededUsers, uploadModel } from '../support/fixtures';
import {
  approveAllButLast,
  approversFor,
  downloadXml,
  headerOf,
  lastApprover,
  lastStepStatuses,
  lastSteps,
  prepareAndNotify,
  seededSigner,
  verifyAsDevice,
  waitForStatus,
} from '../support/package-flow';
import { s3At } from '../support/store';

/**
 * Model packages: a model's metadata file is its patch config, and the server computes
 * Patch Config Size for it as for every computed field. Before the fix the last step answered 500
 * "The header's Patch Config Size is 0, but the patch config is N bytes" and the package was stuck.
 */

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
});

const METADATA = JSON.stringify({ modelName: 'keyword-spotter', version: '2.0.1', labels: ['yes', 'no'] });
const RESOURCES = localBucket('resources');
const ARTEFACTS = localBucket('artefacts');
const sizeField = (h: Awaited<ReturnType<typeof headerOf>>, name: string) =>
  h.fields.find((f) => f.name === name)?.value;

async function metadataObject(resourceId: string) {
  const s3 = s3At(inject('s3Endpoint'));
  const listed = await s3.send(
    new ListObjectsV2Command({ Bucket: RESOURCES, Prefix: `resources/${resourceId}/metadata/` }),
  );
  const key = listed.Contents?.[0]?.Key;
  if (!key) throw new Error('metadata object not found');
  return { s3, key };
}

async function pkgStatus(id: string, stage: 'dev' | 'release'): Promise<Package['status']> {
  const r = await api<{ packages: string }>(`/${stage}/packages`, { token: u.lead.token });
  const all = JSON.parse(r.body.packages) as Package[];
  return all.find((p) => p.id === id)!.status;
}

describe('model packages end to end', () => {
  for (const [type, stage] of [
    ['RELEASE_SIGNED', 'release'],
    ['DEV_UNSIGNED', 'dev'],
  ] as const) {
    it(`takes a ${type} model from upload to a downloaded package that verifies`, async () => {
      const resource = await uploadModel(u.designDev.token, stage, { size: 4096, metadata: METADATA });
      const pkg = await createPackage(u.designDev.token, resource.id, type);
      // the header is right from the start: the metadata file is the patch config
      const initial = await headerOf(pkg.id, u.designDev.token);
      expect(sizeField(initial, 'Patch Config Size')).toBe(Buffer.byteLength(METADATA));
      expect(sizeField(initial, 'Patch Data Size')).toBe(4096);

      // a client cannot set a computed field: its value is ignored
      const forged = structuredClone(initial);
      forged.fields.find((f) => f.name === 'Patch Config Size')!.value = 0;
      forged.fields.find((f) => f.name === 'Patch Data Size')!.value = 1;
      const saved = await api<{ header: string }>(`/packages/${pkg.id}/header`, {
        method: 'PATCH',
        token: u.designDev.token,
        body: { header: JSON.stringify(forged) },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const after = await headerOf(pkg.id, u.designDev.token);
      expect(sizeField(after, 'Patch Config Size')).toBe(Buffer.byteLength(METADATA));
      expect(sizeField(after, 'Patch Data Size')).toBe(4096);

      await prepareAndNotify(u, pkg);
      await approveAllButLast(u, pkg);
      const steps = await lastSteps(u, pkg);
      expect(steps.map((s) => s.status)).toEqual(lastStepStatuses(pkg));
      // generated off the request path (decision 160); lastSteps waited for APPROVED / SIGNED
      expect(steps.at(-1)!.body.outcome).toBe('GENERATING');

      const { file, dir } = await downloadXml(pkg.id, u.designDev.token);
      const v = await verifyAsDevice(file, dir, type, join(dir, 'x'));
      expect(v.out).toContain('VERDICT: VALID');
      expect(v.code).toBe(0);
      expect(readFileSync(join(dir, 'x', 'patch-config.bin'), 'utf8')).toBe(METADATA);
      const xml = readFileSync(file, 'utf8');
      expect(xml).toMatch(new RegExp(`name="Patch Config Size" value="${Buffer.byteLength(METADATA)}"`));
      expect(xml).toContain('<resourceType>MODEL</resourceType>');
    });
  }

  it('generates a model package whose stored header still says Patch Config Size 0 (a record from before the fix)', async () => {
    const resource = await uploadModel(u.designDev.token, 'dev', { metadata: METADATA });
    // a resource stored before the metadata size was recorded: its packages were created with 0
    const ddb = await localDynamo();
    await ddb.send(
      new UpdateCommand({
        TableName: localTable('resources'),
        Key: { pk: `RES#${resource.id}` },
        UpdateExpression: 'REMOVE metadataSizeBytes',
      }),
    );
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_SIGNED');
    expect(sizeField(await headerOf(pkg.id, u.designDev.token), 'Patch Config Size')).toBe(0);
    await prepareAndNotify(u, pkg);
    await approveAllButLast(u, pkg);
    const steps = await lastSteps(u, pkg);
    expect(steps.map((s) => s.status)).toEqual([200, 202]);
    const { file, dir } = await downloadXml(pkg.id, u.lead.token);
    const v = await verifyAsDevice(file, dir, pkg.type);
    expect(v.out).toContain('VERDICT: VALID');
    expect(readFileSync(file, 'utf8')).toContain(
      `name="Patch Config Size" value="${Buffer.byteLength(METADATA)}"`,
    );
  });

  for (const [type, stage, step] of [
    ['DEV_UNSIGNED', 'dev', 'the last approval'],
    ['RELEASE_SIGNED', 'release', 'generate-signed'],
  ] as const) {
    it(`returns a ${type} model package whose generation after ${step} fails, with the reason and nothing in storage, and the decider’s Retry finishes it`, async () => {
      const resource = await uploadModel(u.designDev.token, stage, { metadata: METADATA });
      const pkg = await createPackage(u.designDev.token, resource.id, type);
      await prepareAndNotify(u, pkg);
      await approveAllButLast(u, pkg);
      if (pkg.signed) {
        const r = await api(`/packages/${pkg.id}/approve`, {
          method: 'POST',
          token: lastApprover(u, pkg.type).token,
        });
        expect(r.body.outcome).toBe('WAITING_FOR_SIGNING');
      }
      // the cause: the metadata object is gone from storage
      const { s3, key } = await metadataObject(resource.id);
      const saved = await s3.send(new GetObjectCommand({ Bucket: RESOURCES, Key: key }));
      const bytes = Buffer.from(await saved.Body!.transformToByteArray());
      await s3.send(new DeleteObjectCommand({ Bucket: RESOURCES, Key: key }));

      const path = pkg.signed ? `/packages/${pkg.id}/generate-signed` : `/packages/${pkg.id}/approve`;
      // the decider: the signer of a signed package, else the last approver in the policy's order
      const decider = pkg.signed ? seededSigner(u) : lastApprover(u, pkg.type);
      const someoneElse = approversFor(u, pkg.type).find((a) => a.id !== decider.id)!;
      // the deciding call is accepted at once; the generation fails off the request path (decision 160)
      const decided = await api(path, { method: 'POST', token: decider.token });
      expect([decided.status, decided.body.outcome]).toEqual([202, 'GENERATING']);
      const before = pkg.signed ? 'AWAITING_SIGNATURE' : 'PENDING_APPROVAL';
      const failed = await waitForStatus(pkg, u.lead.token, before, {
        until: (p) => p.generation?.state === 'FAILED',
      });
      expect(failed.generation?.reason).toBe(
        `The metadata file of resource ${resource.name} is missing from storage (after 3 attempts)`,
      );
      expect(failed.generation?.requestedBy.id).toBe(decider.id);
      expect(await pkgStatus(pkg.id, stage)).toBe(before);
      expect((await api(`/packages/${pkg.id}`, { token: u.lead.token })).status).toBe(409);
      const history = jsonText<{ action: string; details?: { reason?: string } }[]>(
        (await api<{ history: string }>(`/packages/${pkg.id}/history`, { token: u.lead.token })).body.history,
      );
      // the decision stays recorded; the failure is audited with its reason
      expect(history.map((e) => e.action)).toContain(pkg.signed ? 'SIGNED' : 'FULLY_APPROVED');
      expect(history.at(-1)).toMatchObject({
        action: 'GENERATION_FAILED',
        details: { reason: failed.generation?.reason },
      });
      // nothing half-written stays in storage
      const left = await s3.send(
        new ListObjectsV2Command({ Bucket: ARTEFACTS, Prefix: `packages/${pkg.id}/` }),
      );
      expect(left.Contents ?? []).toEqual([]);
      // the person who retries still finds the package in their list (approval or signing)
      const list = pkg.signed ? `/release/packages/signing` : `/dev/packages/approval`;
      const waiting = await api<{ packages: string }>(list, { token: decider.token });
      expect(waiting.status, list).toBe(200);
      expect((JSON.parse(waiting.body.packages) as Package[]).map((p) => p.id)).toContain(pkg.id);
      // only the decider may retry
      const other = await api<{ errorMessage: string }>(`/packages/${pkg.id}/retry-generation`, {
        method: 'POST',
        token: someoneElse.token,
      });
      expect(other.status).toBe(403);
      expect(other.body.errorMessage).toMatch(
        /^Only .+, whose decision started the generation, may retry it$/,
      );

      // the cause is fixed; the decider's Retry finishes the package
      await s3.send(new PutObjectCommand({ Bucket: RESOURCES, Key: key, Body: bytes }));
      const retried = await api(`/packages/${pkg.id}/retry-generation`, {
        method: 'POST',
        token: decider.token,
      });
      expect([retried.status, retried.body.outcome], JSON.stringify(retried.body)).toEqual([
        202,
        'GENERATING',
      ]);
      const ready = await waitForStatus(pkg, u.lead.token, pkg.signed ? 'SIGNED' : 'APPROVED');
      expect(ready.generation).toBeUndefined();
      expect(ready.linkToS3).toMatch(new RegExp(`^packages/${pkg.id}/.+\\.xml$`));
      if (pkg.signed) expect(ready.mLifePath).toBe(ready.linkToS3);
      const { file, dir } = await downloadXml(pkg.id, u.lead.token);
      const v = await verifyAsDevice(file, dir, pkg.type);
      expect(v.out).toContain('VERDICT: VALID');
      const after = await api<{ packages: string }>(list, { token: decider.token });
      expect((JSON.parse(after.body.packages) as Package[]).map((p) => p.id)).not.toContain(pkg.id);
    });
  }
});
