import { Readable } from 'node:stream';
import type { BlobHead, BlobStore } from '../../ports/blob-store';

/**
 * Object storage in memory, for the web component tests' backend (lambdas/testing/memory-composition.ts).
 * Presigned URLs point at `urlBase` (`{urlBase}/{bucket}/{key}`); whoever answers those URLs (the tests'
 * MSW seam) stores the PUT body with `put`. Multipart uploads are tested over HTTP against the local stack
 * (test/integration/multipart-upload.test.ts), so this store refuses them.
 */
export class MemoryBlobStore implements BlobStore {
  readonly objects = new Map<string, { bytes: Buffer; contentType?: string }>();

  constructor(private readonly urlBase = 'https://memory-storage.test') {}

  private static id(bucket: string, key: string): string {
    return `${bucket}/${key}`;
  }

  async put(
    bucket: string,
    key: string,
    body: Uint8Array | Readable,
    options: { contentType?: string } = {},
  ) {
    const chunks: Buffer[] = [];
    // isView, not instanceof: a test's Uint8Array may come from another realm (jsdom's)
    if (ArrayBuffer.isView(body)) chunks.push(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    else for await (const c of body) chunks.push(Buffer.from(c as Uint8Array));
    this.objects.set(MemoryBlobStore.id(bucket, key), {
      bytes: Buffer.concat(chunks),
      ...(options.contentType ? { contentType: options.contentType } : {}),
    });
  }

  async putStream(bucket: string, key: string, body: AsyncIterable<Uint8Array>) {
    const chunks: Buffer[] = [];
    for await (const c of body) chunks.push(Buffer.from(c));
    const bytes = Buffer.concat(chunks);
    this.objects.set(MemoryBlobStore.id(bucket, key), { bytes });
    return { sizeBytes: bytes.length };
  }

  async get(bucket: string, key: string) {
    const o = this.objects.get(MemoryBlobStore.id(bucket, key));
    return o ? Readable.from([o.bytes]) : null;
  }

  async head(bucket: string, key: string): Promise<BlobHead | null> {
    const o = this.objects.get(MemoryBlobStore.id(bucket, key));
    return o ? { sizeBytes: o.bytes.length, ...(o.contentType ? { contentType: o.contentType } : {}) } : null;
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

  async presignGet(bucket: string, key: string) {
    return `${this.urlBase}/${bucket}/${key}`;
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
