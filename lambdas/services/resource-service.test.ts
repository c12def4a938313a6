import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Resource, ResourceType, Stage } from '../../shared/api/contracts/resources';
import { nameClaimKey } from '../../shared/domain/resource-rules';
import { MSG } from '../../shared/messages';
import { MemoryUploadJobs } from '../adapters/memory/upload-jobs';
import type { AuditEvent, Recorded } from '../ports/audit-log';
import type { BlobStore } from '../ports/blob-store';
import type {
  PendingUpload,
  ResourceRecord,
  ResourceReference,
  ResourceReferences,
  ResourceRepository,
  UploadOutcome,
} from '../ports/resource-repository';
import { type Actor, type IncomingFile, ResourceService } from './resource-service';

const BUCKET = 'res-bucket';

class MemoryBlobs implements BlobStore {
  objects = new Map<string, Buffer>();
  failPutOf?: string;
  async put(_b: string, key: string, body: Uint8Array | Readable) {
    if (this.failPutOf && key.includes(this.failPutOf)) throw new Error('S3 is down');
    const chunks: Buffer[] = [];
    if (body instanceof Uint8Array) chunks.push(Buffer.from(body));
    else for await (const c of body) chunks.push(Buffer.from(c as Buffer));
    this.objects.set(key, Buffer.concat(chunks));
    return {};
  }
  async putStream(_b: string, key: string, body: AsyncIterable<Uint8Array>) {
    const chunks: Buffer[] = [];
    for await (const c of body) chunks.push(Buffer.from(c));
    this.objects.set(key, Buffer.concat(chunks));
    return { sizeBytes: this.objects.get(key)?.length ?? 0 };
  }
  async get(_b: string, key: string) {
    const o = this.objects.get(key);
    // small chunks, so hashing really happens piece by piece
    return o
      ? Readable.from(Array.from({ length: Math.ceil(o.length / 3) }, (_, i) => o.subarray(i * 3, i * 3 + 3)))
      : null;
  }
  async head(_b: string, key: string) {
    const o = this.objects.get(key);
    return o ? { sizeBytes: o.length } : null;
  }
  async readRange(_b: string, key: string, start: number, end: number) {
    const o = this.objects.get(key);
    return o ? new Uint8Array(o.subarray(start, end + 1)) : null;
  }
  async delete(_b: string, keys: readonly string[]) {
    for (const k of keys) this.objects.delete(k);
  }
  async presignPut(b: string, key: string, o: { expiresInSeconds: number }) {
    return `http://s3.local/${b}/${key}?expires=${o.expiresInSeconds}`;
  }
  async presignGet(b: string, key: string) {
    return `http://s3.local/${b}/${key}`;
  }
  // multipart uploads are tested over HTTP against the local stack (test/integration/multipart-upload.test.ts)
  createMultipart(): Promise<string> {
    throw new Error('not used by these tests');
  }
  presignPart(): Promise<string> {
    throw new Error('not used by these tests');
  }
  listParts(): Promise<null> {
    throw new Error('not used by these tests');
  }
  completeMultipart(): Promise<void> {
    throw new Error('not used by these tests');
  }
  abortMultipart(): Promise<void> {
    throw new Error('not used by these tests');
  }
}

class MemoryRepo implements ResourceRepository {
  items = new Map<string, Record<string, unknown>>();
  /** names a concurrent upload claims between the early check and the transaction */
  raceName?: string;
  async getById(id: string) {
    return (this.items.get(`RES#${id}`) as ResourceRecord | undefined) ?? null;
  }
  async isNameTaken(name: string) {
    return this.items.has(nameClaimKey(name));
  }
  /** the events the writes committed with them */
  audit = new MemoryAudit();
  async create(r: ResourceRecord, consume?: string, commit: Recorded = {}) {
    if (this.raceName === r.name || this.items.has(nameClaimKey(r.name))) return 'nameTaken' as const;
    if (consume && !this.items.has(`UPLOAD#${consume}`)) return 'uploadGone' as const;
    // the record and its events in one transaction: an event that cannot be written fails the whole write
    this.audit.commit(commit);
    this.items.set(nameClaimKey(r.name), { resourceId: r.id });
    this.items.set(`RES#${r.id}`, { ...r });
    if (consume) {
      this.items.delete(`UPLOAD#${consume}`);
      this.outcomes.set(consume, { ownerId: r.uploadedBy.id, resourceId: r.id });
    }
    return 'ok' as const;
  }
  outcomes = new Map<string, UploadOutcome>();
  async startVerification(
    id: string,
    lockedAt: string,
    jobId: string,
    by: Actor,
    _keep: string,
    etags?: readonly string[],
  ) {
    const u = this.items.get(`UPLOAD#${id}`) as PendingUpload | undefined;
    if (u?.confirmingAt !== lockedAt) return false;
    if (etags) u.completeEtags = [...etags];
    Object.assign(u, { verifyJobId: jobId, verifyingFor: by, verifiedBytes: 0 });
    delete u.verifyFailure;
    return true;
  }
  async recordVerification(id: string, jobId: string, n: number) {
    const u = this.items.get(`UPLOAD#${id}`) as PendingUpload | undefined;
    if (u?.verifyJobId !== jobId) return false;
    u.verifiedBytes = n;
    return true;
  }
  async failVerification(id: string, jobId: string, reason: string) {
    const u = this.items.get(`UPLOAD#${id}`) as PendingUpload | undefined;
    if (u?.verifyJobId !== jobId) return false;
    u.verifyFailure = reason;
    delete u.confirmingAt;
    return true;
  }
  async refuseUpload(id: string, ownerId: string, refusal: { statusCode: number; errorMessage: string }) {
    this.items.delete(`UPLOAD#${id}`);
    this.outcomes.set(id, { ownerId, refusal });
  }
  async getUploadOutcome(id: string) {
    return this.outcomes.get(id) ?? null;
  }
  async listByTypeStage(type: ResourceType, stage: Stage) {
    return (await this.listAll()).filter((r) => r.resourceType === type && r.resourceStage === stage);
  }
  async listAll() {
    return [...this.items.entries()]
      .filter(([k]) => k.startsWith('RES#'))
      .map(([, v]) => v as unknown as ResourceRecord)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }
  async delete(r: ResourceRecord, commit: Recorded = {}) {
    if (!this.items.has(`RES#${r.id}`)) return 'missing' as const;
    this.audit.commit(commit);
    this.items.delete(`RES#${r.id}`);
    this.items.delete(nameClaimKey(r.name));
    return 'ok' as const;
  }
  async putPendingUpload(u: PendingUpload) {
    this.items.set(`UPLOAD#${u.uploadId}`, { ...u });
  }
  async getPendingUpload(id: string) {
    return (this.items.get(`UPLOAD#${id}`) as PendingUpload | undefined) ?? null;
  }
  async lockPendingUpload(id: string, owner: string, at: string, staleBefore: string) {
    const u = this.items.get(`UPLOAD#${id}`) as PendingUpload | undefined;
    if (!u || u.ownerId !== owner) return false;
    const verifying = u.verifyJobId !== undefined && u.verifyFailure === undefined;
    if (verifying && u.confirmingAt && u.confirmingAt >= staleBefore) return false;
    u.confirmingAt = at;
    return true;
  }
  async unlockPendingUpload(id: string, lockedAt: string) {
    const u = this.items.get(`UPLOAD#${id}`) as PendingUpload | undefined;
    if (u?.confirmingAt === lockedAt) delete u.confirmingAt;
  }
  async deletePendingUpload(id: string) {
    this.items.delete(`UPLOAD#${id}`);
  }
}

/** The events the repository's writes committed; `fail`: the audit table does not answer (nothing commits). */
class MemoryAudit {
  events: AuditEvent[] = [];
  fail = false;
  commit(c: Recorded) {
    if (this.fail && c.events?.length) throw new Error('audit table unavailable');
    this.events.push(...(c.events ?? []));
  }
}

class MemoryRefs implements ResourceReferences {
  uses = new Map<string, ResourceReference[]>();
  async packagesUsing(id: string) {
    return this.uses.get(id) ?? [];
  }
}

const dana: Actor = { id: 'u-dana', name: 'Dana Dev', userRole: 'DESIGN_ENGINEER_DEV' };
const tess: Actor = { id: 'u-tess', name: 'Tess Tester', userRole: 'DESIGN_ENGINEER_TEST' };
const ada: Actor = { id: 'u-ada', name: 'Ada Admin', userRole: 'ADMIN' };

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
function file(fileName: string, content: Uint8Array | string): IncomingFile {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  return { fileName, bytes, sizeBytes: bytes.length, sha256: sha(bytes) };
}
const modelBytes = Uint8Array.from([0x1c, 0, 0, 0, 0x54, 0x46, 0x4c, 0x33, 1, 2, 3, 4]);
const metaJson = '{"modelName":"kws","version":"2.1"}';

let blobs: MemoryBlobs;
let repo: MemoryRepo;
let audit: MemoryAudit;
let refs: MemoryRefs;
let now: Date;
let service: ResourceService;
let jobs: MemoryUploadJobs;

beforeEach(() => {
  jobs = new MemoryUploadJobs();
  blobs = new MemoryBlobs();
  repo = new MemoryRepo();
  audit = repo.audit;
  refs = new MemoryRefs();
  now = new Date('2026-05-01T10:00:00.000Z');
  service = new ResourceService(
    repo,
    refs,
    blobs,
    { now: () => now },
    {
      bucket: () => BUCKET,
      maxResourceBytes: 64,
      maxMetadataBytes: 48,
      uploadTtlSeconds: 900,
    },
    () => jobs,
  );
});

async function rejection(p: Promise<unknown>): Promise<{ statusCode: number; message: string }> {
  try {
    await p;
  } catch (e) {
    return e as { statusCode: number; message: string };
  }
  throw new Error('expected a rejection');
}

const nothingStored = () => {
  expect(blobs.objects.size).toBe(0);
  expect([...repo.items.keys()].filter((k) => !k.startsWith('UPLOAD#'))).toEqual([]);
};

describe('multipart upload', () => {
  it('stores the bytes, then the record, and records who uploaded what', async () => {
    const r = await service.upload(dana, {
      type: 'PATCH',
      stage: 'DEV',
      name: 'fw-1',
      resourceFile: file('FW.BIN', 'patch-bytes'),
    });
    expect(r).toMatchObject({
      name: 'fw-1',
      resourceType: 'PATCH',
      resourceStage: 'DEV',
      uploadTime: '2026-05-01 10:00:00',
      uploadedBy: { id: dana.id, name: dana.name },
      fileName: 'FW.BIN',
      sizeBytes: 11,
      sha256: sha(new TextEncoder().encode('patch-bytes')),
    });
    expect(r).not.toHaveProperty('objectKey');
    const stored = await repo.getById(r.id);
    expect(blobs.objects.get(stored!.objectKey)?.toString()).toBe('patch-bytes');
    expect(audit.events).toEqual([
      expect.objectContaining({
        subject: `RES#${r.id}`,
        action: 'RESOURCE_UPLOADED',
        actorRole: 'DESIGN_ENGINEER_DEV',
      }),
    ]);
  });

  it('takes modelName and version of a model from its metadata', async () => {
    const r = await service.upload(dana, {
      type: 'MODEL',
      stage: 'RELEASE',
      name: 'kws',
      resourceFile: file('m.tflite', modelBytes),
      metadataFile: file('m.json', metaJson),
    });
    expect(r).toMatchObject({ modelName: 'kws', modelVersion: '2.1', resourceStage: 'RELEASE' });
    expect(blobs.objects.size).toBe(2);
  });

  it("records the metadata file's SHA-256 and size at upload, beside the payload's (decision 190)", async () => {
    const r = await service.upload(dana, {
      type: 'MODEL',
      stage: 'DEV',
      name: 'kws-pin',
      resourceFile: file('m.tflite', modelBytes),
      metadataFile: file('m.json', metaJson),
    });
    const rec = (await repo.getById(r.id))!;
    expect([rec.metadataSha256, rec.metadataSizeBytes]).toEqual([
      sha(new TextEncoder().encode(metaJson)),
      metaJson.length,
    ]);
    expect(audit.events.at(-1)?.details).toMatchObject({
      sha256: sha(modelBytes),
      metadataSha256: sha(new TextEncoder().encode(metaJson)),
      metadataSizeBytes: metaJson.length,
    });
  });

  it.each([
    ['a missing resource file', { type: 'PATCH' as const }, 400, 'Choose a resource file (.bin)'],
    [
      'a wrong extension',
      { type: 'PATCH' as const, resourceFile: file('x.exe', 'a') },
      400,
      MSG.fileTypeNotSupported,
    ],
    [
      'metadata sent with a patch',
      { type: 'PATCH' as const, resourceFile: file('x.bin', 'a'), metadataFile: file('m.json', metaJson) },
      400,
      'A patch takes no metadata file',
    ],
    [
      'a model without metadata',
      { type: 'MODEL' as const, resourceFile: file('m.tflite', modelBytes) },
      400,
      'A model needs its metadata file (.json)',
    ],
    ['an empty file', { type: 'PATCH' as const, resourceFile: file('x.bin', '') }, 406, MSG.fileTooSmall],
    [
      'a file above the limit',
      { type: 'PATCH' as const, resourceFile: { ...file('x.bin', 'a'), sizeBytes: 65 } },
      413,
      MSG.fileTooBig,
    ],
    [
      'a model without TFL3',
      {
        type: 'MODEL' as const,
        resourceFile: file('m.tflite', 'not a model'),
        metadataFile: file('m.json', metaJson),
      },
      406,
      'no TFL3 identifier',
    ],
    [
      'metadata that is not JSON',
      {
        type: 'MODEL' as const,
        resourceFile: file('m.tflite', modelBytes),
        metadataFile: file('m.json', 'nope'),
      },
      406,
      'not valid JSON',
    ],
    [
      'metadata without a version',
      {
        type: 'MODEL' as const,
        resourceFile: file('m.tflite', modelBytes),
        metadataFile: file('m.json', '{"modelName":"m"}'),
      },
      406,
      'version',
    ],
  ])('refuses %s and stores nothing', async (_, input, status, text) => {
    const e = await rejection(service.upload(dana, { stage: 'DEV', name: 'n', ...input }));
    expect(e.statusCode).toBe(status);
    expect(e.message).toContain(text);
    nothingStored();
    expect(audit.events).toEqual([]);
  });

  it('refuses a name already taken, in any case, with 409 before writing bytes', async () => {
    await service.upload(dana, {
      type: 'PATCH',
      stage: 'DEV',
      name: 'Main',
      resourceFile: file('a.bin', 'a'),
    });
    const before = blobs.objects.size;
    const e = await rejection(
      service.upload(tess, {
        type: 'PATCH',
        stage: 'RELEASE',
        name: 'main',
        resourceFile: file('b.bin', 'b'),
      }),
    );
    expect(e).toMatchObject({ statusCode: 409, message: MSG.resourceNameConflict });
    expect(blobs.objects.size).toBe(before);
  });

  it('deletes its bytes when a concurrent upload wins the name in the transaction', async () => {
    repo.raceName = 'raced';
    const e = await rejection(
      service.upload(dana, { type: 'PATCH', stage: 'DEV', name: 'raced', resourceFile: file('a.bin', 'a') }),
    );
    expect(e.statusCode).toBe(409);
    expect(e.message).toContain('already exists');
    nothingStored();
  });

  it('removes the resource file when the metadata file cannot be written', async () => {
    blobs.failPutOf = '/metadata/';
    await expect(
      service.upload(dana, {
        type: 'MODEL',
        stage: 'DEV',
        name: 'm',
        resourceFile: file('m.tflite', modelBytes),
        metadataFile: file('m.json', metaJson),
      }),
    ).rejects.toThrow('S3 is down');
    nothingStored();
  });

  it('stores nothing when its audit event cannot be recorded (one transaction)', async () => {
    audit.fail = true;
    await expect(
      service.upload(dana, { type: 'PATCH', stage: 'DEV', name: 'x', resourceFile: file('a.bin', 'a') }),
    ).rejects.toThrow('audit table unavailable');
    nothingStored();
  });
});

describe('presigned upload', () => {
  const request = (over: Record<string, unknown> = {}) =>
    service.requestUpload(dana, {
      name: 'big',
      resourceType: 'MODEL',
      resourceStage: 'DEV',
      fileName: 'big.tflite',
      sizeBytes: modelBytes.length,
      metadataFileName: 'big.json',
      metadataSizeBytes: metaJson.length,
      ...over,
    } as Parameters<ResourceService['requestUpload']>[1]);

  async function stage(u: { uploadId: string }, content = modelBytes, meta = metaJson) {
    const p = (await repo.getPendingUpload(u.uploadId))!;
    blobs.objects.set(p.stagingKey, Buffer.from(content));
    if (p.metadataStagingKey) blobs.objects.set(p.metadataStagingKey, Buffer.from(meta));
    return p;
  }

  it('answers URLs to staging keys that expire with the upload', async () => {
    const u = await request();
    expect(u.resourceUrl).toContain(`staging/${u.uploadId}/big.tflite?expires=900`);
    expect(u.metadataUrl).toContain(`staging/${u.uploadId}/metadata/big.json`);
    expect(u.expiresAt).toBe('2026-05-01T10:15:00.000Z');
  });

  it('keeps a shorter validity a client asks for, never a longer one', async () => {
    expect((await request({ expiresInSeconds: 5 })).resourceUrl).toContain('expires=5');
    expect((await request({ name: 'b2', expiresInSeconds: 3600 })).resourceUrl).toContain('expires=900');
  });

  it('checks name, type and sizes before handing out URLs', async () => {
    await service.upload(dana, {
      type: 'PATCH',
      stage: 'DEV',
      name: 'taken',
      resourceFile: file('a.bin', 'a'),
    });
    expect((await rejection(request({ name: 'TAKEN' }))).statusCode).toBe(409);
    expect((await rejection(request({ fileName: 'big.bin' }))).statusCode).toBe(400);
    expect((await rejection(request({ sizeBytes: 0 }))).message).toBe(MSG.fileTooSmall);
    expect((await rejection(request({ sizeBytes: 65 }))).statusCode).toBe(413);
    expect((await rejection(request({ metadataSizeBytes: 49 }))).statusCode).toBe(413);
    expect((await rejection(request({ metadataFileName: undefined }))).statusCode).toBe(400);
    expect([...repo.items.keys()].filter((k) => k.startsWith('UPLOAD#'))).toEqual([]);
  });

  /** runs the verification jobs started so far, as the verifyUpload worker would */
  async function runJobs() {
    for (const job of jobs.take()) await service.runVerification(job);
  }

  it('answers VERIFYING, then its verification copies the upload out of staging, hashing it, and registers it', async () => {
    const u = await request();
    const p = await stage(u);
    const answer = await service.confirmUpload(dana, u.uploadId);
    expect(answer).toMatchObject({ uploadId: u.uploadId, state: 'VERIFYING', sizeBytes: modelBytes.length });
    // nothing is registered before the job ran
    expect(await repo.listAll()).toEqual([]);
    expect((await service.uploadStatus(dana, u.uploadId)).state).toBe('VERIFYING');
    expect(jobs.started).toHaveLength(1);
    await runJobs();
    const status = await service.uploadStatus(dana, u.uploadId);
    expect(status).toMatchObject({
      state: 'REGISTERED',
      message: MSG.uploaded,
      verifiedBytes: modelBytes.length,
    });
    const r = JSON.parse(status.resource!) as Resource;
    expect(r).toMatchObject({ name: 'big', modelName: 'kws', modelVersion: '2.1', sha256: sha(modelBytes) });
    const rec = (await repo.getById(r.id))!;
    expect(blobs.objects.get(rec.objectKey)).toEqual(Buffer.from(modelBytes));
    expect(blobs.objects.has(rec.metadataKey!)).toBe(true);
    // the metadata file is pinned by the worker that read it (decision 190)
    expect([rec.metadataSha256, rec.metadataSizeBytes]).toEqual([
      sha(new TextEncoder().encode(metaJson)),
      metaJson.length,
    ]);
    expect(blobs.objects.has(p.stagingKey)).toBe(false);
    expect(await repo.getPendingUpload(u.uploadId)).toBeNull();
    expect(audit.events.map((e) => e.action)).toEqual(['RESOURCE_UPLOADED']);
    expect(audit.events[0]).toMatchObject({ actorId: dana.id, actorName: dana.name });
    // a second run of the same job (Lambda delivers at least once) changes nothing
    await service.runVerification({ uploadId: u.uploadId, jobId: 'again' });
    expect(await repo.listAll()).toHaveLength(1);
  });

  it('answers the same VERIFYING to a confirmation sent again; before a byte is read it hands the job over again', async () => {
    const u = await request();
    await stage(u);
    await service.confirmUpload(dana, u.uploadId);
    // the first hand-over may have been lost (a run killed between storing it and starting the job)
    expect((await service.confirmUpload(dana, u.uploadId)).state).toBe('VERIFYING');
    const started = jobs.take();
    expect(started).toHaveLength(2);
    expect(new Set(started.map((j) => j.jobId)).size).toBe(1);
    // both runs at once: one registers, the other leaves the registered bytes alone
    await Promise.all(started.map((job) => service.runVerification(job)));
    const [registered, ...more] = await repo.listAll();
    expect(more).toEqual([]);
    expect(blobs.objects.has(registered!.objectKey)).toBe(true);
    expect((await service.uploadStatus(dana, u.uploadId)).state).toBe('REGISTERED');
    // and after it was registered: accepted before, the state says the rest
    expect((await service.confirmUpload(dana, u.uploadId)).state).toBe('VERIFYING');
    expect(jobs.started).toHaveLength(0);
  });

  it('lets its owner confirm or cancel again after a confirmation was killed in its request', async () => {
    for (const retry of ['confirm', 'cancel'] as const) {
      const u = await request({ name: `killed-${retry}` });
      await stage(u);
      // what a killed confirmation leaves: the upload marked as being confirmed, nothing handed over
      expect(await repo.lockPendingUpload(u.uploadId, dana.id, new Date().toISOString(), '')).toBe(true);
      if (retry === 'confirm') {
        expect((await service.confirmUpload(dana, u.uploadId)).state).toBe('VERIFYING');
        await runJobs();
        expect((await service.uploadStatus(dana, u.uploadId)).state).toBe('REGISTERED');
      } else {
        await service.abortUpload(dana, u.uploadId);
        expect(await repo.getPendingUpload(u.uploadId)).toBeNull();
      }
    }
  });

  it('a name taken while the file was verified ends the upload with the reason; nothing stays', async () => {
    const u = await request();
    await stage(u);
    await service.confirmUpload(dana, u.uploadId);
    await service.upload(tess, {
      type: 'PATCH',
      stage: 'DEV',
      name: 'big',
      resourceFile: file('a.bin', 'a'),
    });
    await runJobs();
    const status = await service.uploadStatus(dana, u.uploadId);
    expect(status).toMatchObject({ state: 'FAILED', statusCode: 409, retryable: false });
    expect(status.errorMessage).toBe(MSG.resourceNameConflict);
    expect([...blobs.objects.keys()].filter((k) => !k.startsWith('resources/'))).toEqual([]);
    expect((await repo.listAll()).map((r) => r.name)).toEqual(['big']);
    expect(await repo.getPendingUpload(u.uploadId)).toBeNull();
  });

  it('a storage failure while verifying keeps the upload; after the last retry it says why and can be confirmed again', async () => {
    const u = await request();
    const p = await stage(u);
    await service.confirmUpload(dana, u.uploadId);
    const [job] = jobs.take();
    const get = blobs.get.bind(blobs);
    blobs.get = async () => {
      throw new Error('S3 unavailable');
    };
    await expect(service.runVerification(job!)).rejects.toThrow('S3 unavailable');
    expect(blobs.objects.has(p.stagingKey)).toBe(true);
    expect((await service.uploadStatus(dana, u.uploadId)).state).toBe('VERIFYING');
    await service.failVerification(job!, 'storage or the database did not answer, after 3 attempts');
    const failed = await service.uploadStatus(dana, u.uploadId);
    expect(failed).toMatchObject({ state: 'FAILED', retryable: true });
    expect(failed.errorMessage).toMatch(/after 3 attempts.*confirm the upload again/);
    // the failed job's late run changes nothing; a new confirmation starts a new one
    blobs.get = get;
    await service.runVerification(job!);
    expect(await repo.listAll()).toEqual([]);
    await service.confirmUpload(dana, u.uploadId);
    await runJobs();
    expect((await service.uploadStatus(dana, u.uploadId)).state).toBe('REGISTERED');
  });

  it('a job that cannot be started leaves the upload unlocked with the reason', async () => {
    const u = await request();
    await stage(u);
    jobs.failStart = new Error('Lambda throttled');
    expect((await rejection(service.confirmUpload(dana, u.uploadId))).message).toBe('Lambda throttled');
    expect(await service.uploadStatus(dana, u.uploadId)).toMatchObject({ state: 'FAILED', retryable: true });
    jobs.failStart = undefined;
    expect((await service.confirmUpload(dana, u.uploadId)).state).toBe('VERIFYING');
  });

  it('checks the TFL3 header again on the bytes it hashes: a staged model replaced after the confirmation is refused', async () => {
    const u = await request();
    const p = await stage(u);
    await service.confirmUpload(dana, u.uploadId);
    // the PUT URL still works: the same size, without TFL3
    blobs.objects.set(p.stagingKey, Buffer.from(new TextEncoder().encode('x'.repeat(modelBytes.length))));
    await runJobs();
    const status = await service.uploadStatus(dana, u.uploadId);
    expect(status).toMatchObject({ state: 'FAILED', statusCode: 406, retryable: false });
    expect(status.errorMessage).toContain('TFL3');
    nothingStored();
    expect(await repo.listAll()).toEqual([]);
  });

  it("shows an upload's state to its owner only", async () => {
    const u = await request();
    expect((await service.uploadStatus(dana, u.uploadId)).state).toBe('UPLOADING');
    expect((await rejection(service.uploadStatus(tess, u.uploadId))).statusCode).toBe(403);
    expect((await rejection(service.uploadStatus(dana, 'nope'))).statusCode).toBe(404);
  });

  it("refuses another user's confirmation and leaves the upload alone", async () => {
    const u = await request();
    await stage(u);
    const e = await rejection(service.confirmUpload(tess, u.uploadId));
    expect(e.statusCode).toBe(403);
    expect(await repo.getPendingUpload(u.uploadId)).not.toBeNull();
    expect(blobs.objects.size).toBe(2);
  });

  it('answers 404 for an unknown or expired upload and removes the expired one', async () => {
    expect((await rejection(service.confirmUpload(dana, 'nope'))).statusCode).toBe(404);
    const u = await request();
    await stage(u);
    now = new Date(now.getTime() + 901_000);
    expect((await rejection(service.confirmUpload(dana, u.uploadId))).statusCode).toBe(404);
    nothingStored();
    expect(await repo.getPendingUpload(u.uploadId)).toBeNull();
  });

  it.each([
    ['nothing was uploaded', null, metaJson, 400],
    ['the file size differs from the declared one', Uint8Array.from([...modelBytes, 9]), metaJson, 406],
    ['the model has no TFL3', new TextEncoder().encode('xxxxxxxxxxxx'), metaJson, 406],
    ['the metadata has no modelName', modelBytes, '{"version":"1.0","model":"kws"}', 406],
  ])('removes everything when %s', async (_, content, meta, status) => {
    const u = await request({ metadataSizeBytes: meta.length });
    const p = await stage(u, content ?? modelBytes, meta);
    if (!content) blobs.objects.delete(p.stagingKey);
    expect((await rejection(service.confirmUpload(dana, u.uploadId))).statusCode).toBe(status);
    nothingStored();
    expect(await repo.getPendingUpload(u.uploadId)).toBeNull();
  });
});

describe('admin deletion', () => {
  async function patch(name: string) {
    return service.upload(dana, { type: 'PATCH', stage: 'DEV', name, resourceFile: file('a.bin', name) });
  }

  it('deletes records, name claims and bytes, and records it', async () => {
    const a = await patch('a');
    const b = await patch('b');
    await service.deleteResources(ada, [a.id, b.id, a.id]);
    nothingStored();
    expect(audit.events.filter((e) => e.action === 'RESOURCE_DELETED').map((e) => e.subject)).toEqual([
      `RES#${a.id}`,
      `RES#${b.id}`,
    ]);
    await patch('a'); // the name is free again
  });

  it('refuses, naming the packages, when a package uses a resource; nothing is deleted', async () => {
    const a = await patch('a');
    const b = await patch('b');
    refs.uses.set(b.id, [{ packageId: 'p1', packageName: 'release-7' }]);
    const e = await rejection(service.deleteResources(ada, [a.id, b.id]));
    expect(e.statusCode).toBe(409);
    expect(e.message).toContain("'b' is used by 'release-7'");
    expect(await repo.getById(a.id)).not.toBeNull();
    expect(blobs.objects.size).toBe(2);
  });

  it('answers 404 naming unknown ids and deletes nothing', async () => {
    const a = await patch('a');
    const e = await rejection(service.deleteResources(ada, [a.id, 'ghost']));
    expect(e).toMatchObject({ statusCode: 404, message: 'No resource with id ghost' });
    expect(await repo.getById(a.id)).not.toBeNull();
  });
});
