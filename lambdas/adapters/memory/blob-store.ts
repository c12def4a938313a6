import { Readable } from 'node:stream';
import type {
  BlobHead,
  BlobStore,
  PresignGetOptions,
  PutOptions,
  StoredVersion,
} from '../../ports/blob-store';

/** The type S3 keeps for an object: the one given, else what the S3 adapter sends (bytes). */
const typeOf = (o: { contentType?: string }): string => o.contentType ?? 'application/octet-stream';

interface MemoryObject {
  bytes: Buffer;
  contentType?: string;
  versionId?: string;
}

/**
 * Object storage in memory, for the web component tests' backend (lambdas/testing/memory-composition.ts).
 * Presigned URLs point at `urlBase` (`{urlBase}/{bucket}/{key}`); whoever answers those URLs (the tests'
 * MSW seam) stores the PUT body with `put`. Multipart uploads are tested over HTTP against the local stack
 * (test/integration/multipart-upload.test.ts), so this store refuses them.
 *
 * `versioned` stores as a versioned S3 bucket does (the artefacts bucket in AWS): every write is a new
 * version with its id, earlier versions stay readable by id, and a deletion hides the object (a delete
 * marker) but keeps its versions. Unversioned, it stores as s3rver does: no version ids at all.
 */
export class MemoryBlobStore implements BlobStore {
  /** the current object of each `bucket/key` */
  readonly objects = new Map<string, MemoryObject>();
  /** every version written, by `bucket/key` (versioned only) */
  private readonly versions = new Map<string, MemoryObject[]>();
  private written = 0;

  constructor(
    private readonly urlBase = 'https://memory-storage.test',
    private readonly versioned = false,
  ) {}

  private static id(bucket: string, key: string): string {
    return `${bucket}/${key}`;
  }

  private store(bucket: string, key: string, o: MemoryObject): StoredVersion {
    const id = MemoryBlobStore.id(bucket, key);
    if (!this.versioned) {
      this.objects.set(id, o);
      return {};
    }
    this.written += 1;
    const stored = { ...o, versionId: `v${this.written}.${key.length}` };
    this.objects.set(id, stored);
    this.versions.set(id, [...(this.versions.get(id) ?? []), stored]);
    return { versionId: stored.versionId };
  }

  async put(bucket: string, key: string, body: Uint8Array | Readable, options: PutOptions = {}) {
    // as S3's PutObject: a streamed body needs its length up front
    if (!ArrayBuffer.isView(body) && options.sizeBytes === undefined)
      throw new Error(`put ${key}: a streamed body needs sizeBytes`);
    const chunks: Buffer[] = [];
    // isView, not instanceof: a test's Uint8Array may come from another realm (jsdom's)
    if (ArrayBuffer.isView(body)) chunks.push(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    else for await (const c of body) chunks.push(Buffer.from(c as Uint8Array));
    return this.store(bucket, key, { bytes: Buffer.concat(chunks), contentType: typeOf(options) });
  }

  async putStream(
    bucket: string,
    key: string,
    body: AsyncIterable<Uint8Array>,
    options: { contentType?: string } = {},
  ) {
    const chunks: Buffer[] = [];
    for await (const c of body) chunks.push(Buffer.from(c));
    const bytes = Buffer.concat(chunks);
    return { sizeBytes: bytes.length, ...this.store(bucket, key, { bytes, contentType: typeOf(options) }) };
  }

  async get(bucket: string, key: string, options: { versionId?: string } = {}) {
    const id = MemoryBlobStore.id(bucket, key);
    const o = options.versionId
      ? this.versions.get(id)?.find((v) => v.versionId === options.versionId)
      : this.objects.get(id);
    return o ? Readable.from([o.bytes]) : null;
  }

  async head(bucket: string, key: string): Promise<BlobHead | null> {
    const o = this.objects.get(MemoryBlobStore.id(bucket, key));
    return o
      ? {
          sizeBytes: o.bytes.length,
          ...(o.contentType ? { contentType: o.contentType } : {}),
          ...(o.versionId ? { versionId: o.versionId } : {}),
        }
      : null;
  }

  async readRange(bucket: string, key: string, start: number, endInclusive: number) {
    const o = this.objects.get(MemoryBlobStore.id(bucket, key));
    return o ? new Uint8Array(o.bytes.subarray(start, endInclusive + 1)) : null;
  }

  async delete(bucket: string, keys: readonly string[]) {
    for (const k of keys) this.objects.delete(MemoryBlobStore.id(bucket, k));
  }

  async presignPut(bucket: string, key: string) {
    return `${this.urlBase}/${bucket}/${key}`;
  }

  async presignGet(bucket: string, key: string, options?: PresignGetOptions) {
    const version = options?.versionId ? `?versionId=${encodeURIComponent(options.versionId)}` : '';
    return `${this.urlBase}/${bucket}/${key}${version}`;
  }

  createMultipart(): Promise<string> {
    return Promise.reject(new Error('multipart uploads are not kept in memory'));
  }
  presignPart(): Promise<string> {
    return Promise.reject(new Error('multipart uploads are not kept in memory'));
  }
  listParts(): Promise<null> {
    return Promise.reject(new Error('multipart uploads are not kept in memory'));
  }
  completeMultipart(): Promise<void> {
    return Promise.reject(new Error('multipart uploads are not kept in memory'));
  }
  abortMultipart(): Promise<void> {
    return Promise.reject(new Error('multipart uploads are not kept in memory'));
  }
}
