import { PassThrough, type Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { BlobStore } from '../../lambdas/ports/blob-store';
import { fresh } from './fresh-ids';

/** The store under the contract and a bucket of its own (created by the subject). */
export interface BlobStoreSubject {
  store: BlobStore;
  bucket: string;
}

async function bytesOf(r: Readable | null): Promise<Buffer | null> {
  if (!r) return null;
  const chunks: Buffer[] = [];
  for await (const c of r) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

/** A byte stream (not object mode), as a file copied from another object reaches `put`. */
function byteStream(parts: Buffer[]): Readable {
  const s = new PassThrough();
  for (const p of parts) s.write(p);
  s.end();
  return s;
}

async function* chunks(parts: Buffer[], failAfter?: number): AsyncGenerator<Uint8Array> {
  for (const [i, p] of parts.entries()) {
    if (failAfter !== undefined && i >= failAfter) throw new Error('the body failed half-way');
    yield p;
  }
}

/**
 * What BlobStore promises (lambdas/ports/blob-store.ts) outside multipart uploads and presigned URLs,
 * run against each adapter: bytes read back as written, a size and type for each object, ranges clipped
 * to the object, missing objects answered with null, deletion of missing keys harmless, and a streamed
 * write that fails leaves nothing. Version ids are not asserted: s3rver keeps none (a versioned bucket is
 * checked on the CDK template). Multipart uploads run over HTTP against the local stack
 * (test/integration/multipart-upload.test.ts); the memory store refuses them.
 */
export function blobStoreContract(adapter: string, make: () => Promise<BlobStoreSubject>) {
  describe(`BlobStore contract: ${adapter}`, () => {
    it('reads back what was put, with its size and type; a missing object is null', async () => {
      const { store, bucket } = await make();
      const key = `${fresh('dir')}/file.bin`;
      const body = Buffer.from('firmware bytes\x00\x01\x02');
      await store.put(bucket, key, new Uint8Array(body), { contentType: 'application/xml' });
      expect(await bytesOf(await store.get(bucket, key))).toEqual(body);
      expect(await store.head(bucket, key)).toMatchObject({
        sizeBytes: body.length,
        contentType: 'application/xml',
      });
      // no type given: stored as bytes
      const untyped = fresh('untyped');
      await store.put(bucket, untyped, new Uint8Array(body));
      expect((await store.head(bucket, untyped))?.contentType).toBe('application/octet-stream');
      expect(await store.get(bucket, fresh('missing'))).toBeNull();
      expect(await store.head(bucket, fresh('missing'))).toBeNull();
      expect(await store.readRange(bucket, fresh('missing'), 0, 3)).toBeNull();
      // a write over the key replaces the bytes
      await store.put(bucket, key, new Uint8Array(Buffer.from('v2')));
      expect((await bytesOf(await store.get(bucket, key)))?.toString()).toBe('v2');
    });

    it('puts a stream of a known length, and refuses a stream without one', async () => {
      const { store, bucket } = await make();
      const key = fresh('streamed');
      const body = Buffer.alloc(70_000, 7);
      await store.put(bucket, key, byteStream([body.subarray(0, 30_000), body.subarray(30_000)]), {
        sizeBytes: body.length,
      });
      expect((await store.head(bucket, key))?.sizeBytes).toBe(body.length);
      expect(await bytesOf(await store.get(bucket, key))).toEqual(body);
      const unsized = fresh('unsized');
      await expect(store.put(bucket, unsized, byteStream([body]))).rejects.toThrow(/sizeBytes/);
      expect(await store.head(bucket, unsized)).toBeNull();
    });

    it('reads a range, clipped to the object', async () => {
      const { store, bucket } = await make();
      const key = fresh('ranged');
      await store.put(bucket, key, new Uint8Array(Buffer.from('0123456789')));
      expect(Buffer.from((await store.readRange(bucket, key, 2, 5)) ?? []).toString()).toBe('2345');
      expect(Buffer.from((await store.readRange(bucket, key, 8, 100)) ?? []).toString()).toBe('89');
      const empty = fresh('empty');
      await store.put(bucket, empty, new Uint8Array());
      expect((await store.head(bucket, empty))?.sizeBytes).toBe(0);
      // not asked here: a range of an empty object. S3 answers 416 (the adapter reads no bytes), but s3rver
      // drops the connection ("aborted"), so that answer cannot be checked on the local stack
    });

    it('streams a body of unknown length; a failing body leaves nothing under the key', async () => {
      const { store, bucket } = await make();
      const key = fresh('generated');
      const parts = [Buffer.from('<xml>'), Buffer.alloc(50_000, 65), Buffer.from('</xml>')];
      const r = await store.putStream(bucket, key, chunks(parts), { contentType: 'application/xml' });
      expect(r.sizeBytes).toBe(50_011);
      expect(await bytesOf(await store.get(bucket, key))).toEqual(Buffer.concat(parts));
      expect((await store.head(bucket, key))?.contentType).toBe('application/xml');
      const broken = fresh('broken');
      await expect(store.putStream(bucket, broken, chunks(parts, 2))).rejects.toThrow(/half-way/);
      expect(await store.head(bucket, broken)).toBeNull();
      expect(await store.get(bucket, broken)).toBeNull();
    });

    it('deletes keys; missing keys are not an error', async () => {
      const { store, bucket } = await make();
      const [a, b] = [fresh('a'), fresh('b')];
      await store.put(bucket, a, new Uint8Array([1]));
      await store.put(bucket, b, new Uint8Array([2]));
      await store.delete(bucket, [a, fresh('never')]);
      expect(await store.head(bucket, a)).toBeNull();
      expect(await store.get(bucket, a)).toBeNull();
      expect((await store.head(bucket, b))?.sizeBytes).toBe(1);
      await store.delete(bucket, [a]);
      await store.delete(bucket, []);
    });
  });
}
