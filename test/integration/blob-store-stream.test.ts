import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { describe, expect, inject, it } from 'vitest';
import { localBucket } from '../../infra/local/local-aws';
import { S3BlobStore } from '../../lambdas/adapters/s3/blob-store';
import { s3At } from '../support/store';

/**
 * BlobStore.putStream against the stack's s3rver, through the same SDK calls as in AWS: how a generated
 * package reaches the artefacts bucket without a temporary file. Parts of 5 MiB (S3's minimum) keep the
 * bodies small.
 */
const PART = 5 * 1024 * 1024;
const BUCKET = localBucket('artefacts');
const client = s3At(inject('s3Endpoint'));
const store = new S3BlobStore(() => client, PART);

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** the body in uneven chunks (1 byte to ~700 KiB), as a generator of XML hands them out */
async function* chunked(bytes: Buffer, failAfter?: number): AsyncGenerator<Uint8Array> {
  let at = 0;
  let step = 1;
  while (at < bytes.length) {
    if (failAfter !== undefined && at >= failAfter) throw new Error('generation failed half-way');
    const end = Math.min(bytes.length, at + step);
    yield bytes.subarray(at, end);
    at = end;
    step = (step * 7 + 13) % (700 * 1024);
  }
}

async function stored(key: string): Promise<Buffer | null> {
  try {
    const r = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    return Buffer.from(await r.Body!.transformToByteArray());
  } catch (e) {
    if ((e as { name?: string }).name === 'NoSuchKey') return null;
    throw e;
  }
}

async function keysUnder(prefix: string): Promise<string[]> {
  const r = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (r.Contents ?? []).map((o) => o.Key ?? '');
}

describe('BlobStore.putStream on s3rver', () => {
  it.each([
    ['three parts, the last one short', 2 * PART + 123_457],
    ['six parts (part buffers are reused for the later ones)', 5 * PART + 99],
    ['exactly two parts', 2 * PART],
    ['under one part (a single PutObject)', 300_001],
    ['empty', 0],
  ])('%s: the object holds exactly the bytes streamed, and its size is reported', async (_, size) => {
    const bytes = randomBytes(size);
    const key = `test-stream/${randomUUID()}.xml`;
    const out = await store.putStream(BUCKET, key, chunked(bytes), { contentType: 'application/xml' });
    expect(out.sizeBytes).toBe(size);
    const back = await stored(key);
    expect(back?.length).toBe(size);
    expect(sha(back!)).toBe(sha(bytes));
    expect(await store.head(BUCKET, key)).toMatchObject({ sizeBytes: size, contentType: 'application/xml' });
  });

  it('a body that lends its chunks (one buffer refilled after each) is stored exactly, across parts', async () => {
    const bytes = randomBytes(2 * PART + 123_457);
    const lent = Buffer.alloc(700 * 1024);
    async function* lending(): AsyncGenerator<Uint8Array> {
      for await (const piece of chunked(bytes)) {
        // the XML builder's way: the same memory each time, written again once the next chunk is asked for
        lent.set(piece);
        yield lent.subarray(0, piece.length);
        lent.fill(0xee);
      }
    }
    const key = `test-stream/${randomUUID()}.xml`;
    expect((await store.putStream(BUCKET, key, lending())).sizeBytes).toBe(bytes.length);
    expect(sha((await stored(key))!)).toBe(sha(bytes));
  });

  it('a body that fails after two parts were sent leaves no object, and the error is the body’s', async () => {
    const prefix = `test-stream/${randomUUID()}/`;
    const bytes = randomBytes(3 * PART);
    await expect(store.putStream(BUCKET, `${prefix}pkg.xml`, chunked(bytes, 2 * PART + 10))).rejects.toThrow(
      'generation failed half-way',
    );
    expect(await stored(`${prefix}pkg.xml`)).toBeNull();
    expect(await keysUnder(prefix)).toEqual([]);
  });

  it('a body that fails before the first part is full leaves no object', async () => {
    const key = `test-stream/${randomUUID()}.xml`;
    await expect(store.putStream(BUCKET, key, chunked(randomBytes(PART), 1000))).rejects.toThrow(
      'generation failed half-way',
    );
    expect(await stored(key)).toBeNull();
  });

  it('a store that refuses the upload (no such bucket) rejects, and the body is not read to the end', async () => {
    let produced = 0;
    async function* counting(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 100; i++) {
        produced += PART;
        yield randomBytes(PART);
      }
    }
    await expect(store.putStream('frp-local-no-such-bucket', 'x.xml', counting())).rejects.toThrow();
    // the body stops soon after the failure: one part read, perhaps two or three in flight
    expect(produced).toBeLessThanOrEqual(4 * PART);
  });
});
