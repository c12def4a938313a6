import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newPackageHeader } from '../../../shared/domain/header/header-rules';
import { MemoryBlobStore } from '../../adapters/memory/blob-store';
import { StoredFileMismatch } from '../../ports/artefact-service';
import type { ArtefactRef, PackageRecord } from '../../ports/package-repository';
import type { ResourceRecord } from '../../ports/resource-repository';
import { BlobArtefactStore } from './artefact-store';
import { samplePayload, testSigner } from './xml-package.fixtures';

/**
 * Decision 302: the stored XML and statement are what generation wrote. Two signed packages A and B are
 * generated into one store; then A's files are written under B's keys (the attack: write access to the
 * bucket, an older validly signed release put in place of the new one). On storage without versions
 * (s3rver) the SHA-256 of the bytes read catches it; on versioned storage (the artefacts bucket in AWS) the
 * current version is no longer the pinned one, and reads ask for the pinned version.
 */

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const PAYLOAD = samplePayload(2048);
const BUCKET = 'artefacts';

function setup(o: { versioned: boolean; inlineLimitBytes?: number }) {
  const blobs = new MemoryBlobStore('https://storage.test', o.versioned);
  const store = new BlobArtefactStore(blobs, () => testSigner(), {
    resourcesBucket: () => 'resources',
    artefactsBucket: () => BUCKET,
    inlineLimitBytes: o.inlineLimitBytes ?? 1024 * 1024,
    downloadUrlTtlSeconds: 60,
  });
  const resource = {
    id: 'r1',
    name: 'pump-4.2',
    fileName: 'pump-4.2.bin',
    objectKey: 'resources/r1/pump-4.2.bin',
    sizeBytes: PAYLOAD.length,
    sha256: sha(PAYLOAD),
  } as unknown as ResourceRecord;
  const person = { id: 'u-rel', name: 'Rel', email: 'rel@example.com', role: 'SW_FW_RELEASE_ENGINEER' };
  const generate = async (id: string, at: string): Promise<ArtefactRef> => {
    await blobs.put('resources', resource.objectKey, PAYLOAD);
    const pkg = {
      id,
      name: `Pump ${id}`,
      type: 'RELEASE_SIGNED',
      signed: true,
      resourceStage: 'RELEASE',
      resourceName: 'pump-4.2',
      resourceType: 'PATCH',
      note: '',
      initiator: { id: 'u-init', name: 'Ada', email: 'ada@example.com', userRole: 'DESIGN_ENGINEER_DEV' },
      createdAt: at,
      header: newPackageHeader({ packageType: 'RELEASE_SIGNED', resourceSizeBytes: PAYLOAD.length }),
    } as unknown as PackageRecord;
    return store.generate({
      pkg,
      resource,
      dcc: { id: 'd1', deviceId: 'VENT-9', telemetryType: 'TelA', deviceLimit: 1, messageLimit: 1 },
      approvals: [{ ...person, id: 'u-tl', decidedAt: at }],
      signedBy: person,
      at: new Date(at),
    });
  };
  /** writes the current bytes of `from` over `to` (the attack) */
  const copy = async (from: string, to: string) => {
    const bytes = blobs.objects.get(`${BUCKET}/${from}`)!.bytes;
    await blobs.put(BUCKET, to, bytes);
    return bytes;
  };
  return { blobs, store, generate, copy };
}

/** The mismatch a call fails with (a test fails when it does not fail so). */
async function mismatchOf(p: Promise<unknown>): Promise<StoredFileMismatch> {
  const e = await p.then(
    () => new Error('no mismatch was thrown'),
    (x: unknown) => x,
  );
  if (!(e instanceof StoredFileMismatch)) throw e;
  return e;
}

describe('the stored files are pinned at generation (decision 302)', () => {
  it('records the SHA-256 of the XML and of the statement as written, and no version where there are none', async () => {
    const t = setup({ versioned: false });
    const ref = await t.generate('pB', '2026-03-02T10:00:00.000Z');
    expect(ref.sha256).toBe(sha(t.blobs.objects.get(`${BUCKET}/${ref.key}`)!.bytes));
    expect(ref.statementSha256).toBe(sha(t.blobs.objects.get(`${BUCKET}/${ref.statementKey}`)!.bytes));
    expect([ref.versionId, ref.statementVersionId]).toEqual([undefined, undefined]);
  });

  it('records the S3 version of each where the bucket keeps versions', async () => {
    const t = setup({ versioned: true });
    const ref = await t.generate('pB', '2026-03-02T10:00:00.000Z');
    expect(ref.versionId).toBe(t.blobs.objects.get(`${BUCKET}/${ref.key}`)!.versionId);
    expect(ref.statementVersionId).toBe(t.blobs.objects.get(`${BUCKET}/${ref.statementKey}`)!.versionId);
    expect(ref.versionId).not.toBe(ref.statementVersionId);
  });
});

describe('without versions (the local stack): the SHA-256 of the bytes read', () => {
  it('serves the generated XML and statement, and refuses another package’s written over them', async () => {
    const t = setup({ versioned: false });
    const a = await t.generate('pA', '2026-03-01T10:00:00.000Z');
    const b = await t.generate('pB', '2026-03-02T10:00:00.000Z');
    const original = (await t.store.download(b, 'b.xml')).base64;
    expect(Buffer.from(original!, 'base64').toString('utf8')).toContain('Pump pB');
    expect(await t.store.statement(b)).not.toBeNull();
    await t.store.verifyStored(b);

    const aXml = await t.copy(a.key, b.key);
    const swapped = await mismatchOf(t.store.download(b, 'b.xml'));
    expect([swapped.file, swapped.pin.key, swapped.problem]).toEqual([
      'xml',
      b.key,
      { kind: 'differs', sizeBytes: aXml.length, sha256: sha(aXml) },
    ]);
    expect((await mismatchOf(t.store.verifyStored(b))).problem.kind).toBe('differs');

    const aStatement = await t.copy(a.statementKey!, b.statementKey!);
    expect((await mismatchOf(t.store.statement(b))).problem).toEqual({
      kind: 'differs',
      sizeBytes: aStatement.length,
      sha256: sha(aStatement),
    });
  });

  it('refuses a missing file, and serves again once the generated bytes are restored', async () => {
    const t = setup({ versioned: false });
    const b = await t.generate('pB', '2026-03-02T10:00:00.000Z');
    const xml = t.blobs.objects.get(`${BUCKET}/${b.key}`)!.bytes;
    await t.blobs.delete(BUCKET, [b.key]);
    expect((await mismatchOf(t.store.download(b, 'b.xml'))).problem).toEqual({ kind: 'missing' });
    expect((await mismatchOf(t.store.verifyStored(b))).problem).toEqual({ kind: 'missing' });
    await t.blobs.put(BUCKET, b.key, xml);
    await t.store.verifyStored(b);
    expect((await t.store.download(b, 'b.xml')).base64).toBe(xml.toString('base64'));
  });

  it('hashes a large file whole before handing out its URL (the URL itself cannot be pinned here)', async () => {
    const t = setup({ versioned: false, inlineLimitBytes: 16 });
    const a = await t.generate('pA', '2026-03-01T10:00:00.000Z');
    const b = await t.generate('pB', '2026-03-02T10:00:00.000Z');
    expect(await t.store.download(b, 'b.xml')).toEqual({ url: `https://storage.test/${BUCKET}/${b.key}` });
    await t.copy(a.key, b.key);
    expect((await mismatchOf(t.store.download(b, 'b.xml'))).problem.kind).toBe('differs');
  });
});

describe('with versions (the artefacts bucket in AWS): the pinned version', () => {
  it('refuses any write over the generated file, even of the same bytes, and reads only the pinned version', async () => {
    const t = setup({ versioned: true });
    const a = await t.generate('pA', '2026-03-01T10:00:00.000Z');
    const b = await t.generate('pB', '2026-03-02T10:00:00.000Z');
    await t.copy(a.key, b.key);
    const replaced = await mismatchOf(t.store.download(b, 'b.xml'));
    const current = t.blobs.objects.get(`${BUCKET}/${b.key}`)!.versionId;
    expect(replaced.problem).toEqual({ kind: 'replaced', versionId: current });
    expect((await mismatchOf(t.store.verifyStored(b))).problem.kind).toBe('replaced');
    await t.copy(a.statementKey!, b.statementKey!);
    expect((await mismatchOf(t.store.statement(b))).problem.kind).toBe('replaced');

    // the same bytes written again are a new version: refused too (nobody writes to a generated file)
    const again = setup({ versioned: true });
    const c = await again.generate('pC', '2026-03-03T10:00:00.000Z');
    await again.copy(c.key, c.key);
    expect((await mismatchOf(again.store.verifyStored(c))).problem.kind).toBe('replaced');
    // the pinned version is still there, byte for byte
    const pinned = await again.blobs.get(BUCKET, c.key, { versionId: c.versionId });
    expect(pinned).not.toBeNull();
  });

  it('hands out a URL of the pinned version without reading the file, and refuses once it is replaced or deleted', async () => {
    const t = setup({ versioned: true, inlineLimitBytes: 16 });
    const a = await t.generate('pA', '2026-03-01T10:00:00.000Z');
    const b = await t.generate('pB', '2026-03-02T10:00:00.000Z');
    expect(await t.store.download(b, 'b.xml')).toEqual({
      url: `https://storage.test/${BUCKET}/${b.key}?versionId=${b.versionId}`,
    });
    await t.blobs.delete(BUCKET, [b.key]);
    expect((await mismatchOf(t.store.download(b, 'b.xml'))).problem).toEqual({ kind: 'missing' });
    await t.copy(a.key, b.key);
    expect((await mismatchOf(t.store.download(b, 'b.xml'))).problem.kind).toBe('replaced');
  });
});
