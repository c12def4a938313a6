import { createHash, randomBytes } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { localS3Config } from '../../infra/local/local-aws';
import type {
  PresignPartsResponse,
  Resource,
  StartMultipartUploadResponse,
  UploadPartsResponse,
} from '../../shared/api/contracts/resources';
import { MSG } from '../../shared/messages';
import { api, jsonText, login, SEEDED, uniq } from '../support/api';
import { settled } from '../support/uploads';

/**
 * Presigned multipart uploads over HTTP against the local stack: parts straight to s3rver,
 * a resumed upload that asks which parts S3 holds, and S3's rules (ETags, part sizes, part list) with
 * a clear 4xx and nothing left behind. The local server makes good what s3rver lacks (ListParts,
 * Abort, Complete's checks: infra/local/s3-multipart-shim.ts), as strict as S3.
 */

const MiB = 1024 * 1024;
let dev = '';
let test = '';
let s3: S3Client;
let bucket = '';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
type Err = { errorMessage?: string };

/** each upload's file is named after it, so what it leaves in the bucket can be found */
function start(name: string, sizeBytes: number, token = dev) {
  return api<StartMultipartUploadResponse & Err>('/resources/uploads/multipart', {
    method: 'POST',
    token,
    body: { name, resourceType: 'PATCH', resourceStage: 'DEV', fileName: `${name}.bin`, sizeBytes },
  });
}
const presign = (uploadId: string, partNumbers: number[], token = dev) =>
  api<PresignPartsResponse & Err>(`/resources/uploads/${uploadId}/parts`, {
    method: 'POST',
    token,
    body: { partNumbers },
  });
const listParts = (uploadId: string, token = dev) =>
  api<UploadPartsResponse & Err>(`/resources/uploads/${uploadId}/parts`, { token });
const complete = (uploadId: string, parts: Array<{ partNumber: number; etag: string }>, token = dev) =>
  api<{ uploadId: string; state: string; sizeBytes: number } & Err>(
    `/resources/uploads/${uploadId}/complete`,
    {
      method: 'POST',
      token,
      body: { parts },
    },
  );
const abort = (uploadId: string, token = dev) =>
  api<{ message: string } & Err>(`/resources/uploads/${uploadId}`, { method: 'DELETE', token });

/**
 * Completes an upload S3 refuses: the route accepts it (202 VERIFYING: S3's CompleteMultipartUpload may
 * take minutes, so it runs in the verifyUpload worker, decision 173) and its state ends FAILED with the
 * refusal, not retryable.
 */
async function refusedAfterCheck(uploadId: string, parts: Array<{ partNumber: number; etag: string }>) {
  const accepted = await complete(uploadId, parts);
  expect([accepted.status, accepted.body.state], accepted.body.errorMessage).toEqual([202, 'VERIFYING']);
  const done = await settled(dev, accepted);
  expect([done.state, done.retryable]).toEqual(['FAILED', false]);
  return done;
}

/** PUTs one part to its presigned URL; answers S3's ETag. */
async function putPart(url: string, bytes: Uint8Array): Promise<string> {
  const r = await fetch(url, { method: 'PUT', body: new Uint8Array(bytes) });
  await r.arrayBuffer();
  expect(r.status).toBe(200);
  const etag = r.headers.get('etag');
  expect(etag).toMatch(/^"?[0-9a-f]{32}"?$/);
  return etag!;
}

/** Keys of the bucket holding the upload's file: staged or at a resource key (the parts join there). */
async function keysOf(name: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const r = await s3.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    keys.push(...(r.Contents ?? []).map((o) => o.Key!));
    token = r.NextContinuationToken;
  } while (token);
  return keys.filter((k) => k.endsWith(`/${name}.bin`));
}

async function patches(): Promise<Resource[]> {
  const r = await api<{ resources: string }>('/resources/patch/DEV', { token: dev });
  return jsonText<Resource[]>(r.body.resources);
}

/** Nothing of the upload stays: no parts (S3 forgot the upload), no staged object, no pending upload. */
async function expectNothingLeft(uploadId: string, name: string) {
  expect((await listParts(uploadId)).status).toBe(404);
  expect(await keysOf(name)).toEqual([]);
  expect((await complete(uploadId, [{ partNumber: 1, etag: '"x"' }])).status).toBe(404);
  expect((await patches()).some((p) => p.name === name)).toBe(false);
}

beforeAll(async () => {
  [dev, test] = await Promise.all([login(SEEDED.designDev), login(SEEDED.designTest)]);
  const probe = await start(uniq('probe'), 1);
  expect(probe.status).toBe(201);
  const urls = await presign(probe.body.uploadId, [1]);
  const url = new URL(urls.body.urls[0]!.url);
  bucket = url.pathname.split('/')[1]!;
  s3 = new S3Client(localS3Config(url.origin));
  expect((await abort(probe.body.uploadId)).status).toBe(200);
});

describe('presigned multipart upload', () => {
  it('resumes after a dropped connection: lists the parts S3 holds, sends the rest, completes with SHA-256', async () => {
    const name = uniq('mp');
    const bytes = randomBytes(2 * 8 * MiB + 1234);
    const s = await start(name, bytes.length);
    expect(s.status).toBe(201);
    expect(s.body).toMatchObject({ partSizeBytes: 8 * MiB, partCount: 3 });
    const { uploadId, partSizeBytes } = s.body;
    const part = (n: number) => bytes.subarray((n - 1) * partSizeBytes, n * partSizeBytes);

    // first session: parts 1 and 3 arrive, then the connection drops (part 2 never sent)
    const first = await presign(uploadId, [1, 3]);
    expect(first.status).toBe(200);
    for (const { partNumber, url } of first.body.urls) await putPart(url, part(partNumber));

    // second session (a reload): ask S3 which parts it holds, send only the missing one
    const held = await listParts(uploadId);
    expect(held.status).toBe(200);
    expect(held.body.partCount).toBe(3);
    expect(held.body.parts.map((p) => [p.partNumber, p.sizeBytes])).toEqual([
      [1, 8 * MiB],
      [3, 1234],
    ]);
    const missing = [1, 2, 3].filter((n) => !held.body.parts.some((p) => p.partNumber === n));
    expect(missing).toEqual([2]);
    const again = await presign(uploadId, missing);
    const etag2 = await putPart(again.body.urls[0]!.url, part(2));

    const etags = new Map(held.body.parts.map((p) => [p.partNumber, p.etag]));
    etags.set(2, etag2);
    const accepted = await complete(
      uploadId,
      [1, 2, 3].map((n) => ({ partNumber: n, etag: etags.get(n)! })),
    );
    // the parts are joined and checked in the request; the SHA-256 runs off it (decision 173)
    expect(accepted.status, accepted.body.errorMessage).toBe(202);
    expect(accepted.body).toMatchObject({ uploadId, state: 'VERIFYING', sizeBytes: bytes.length });
    const done = await settled(dev, accepted);
    expect(done.state, done.errorMessage).toBe('REGISTERED');
    expect(done.message).toBe(MSG.uploaded);
    const resource = jsonText<Resource>(done.resource);
    expect(resource).toMatchObject({ name, sizeBytes: bytes.length, sha256: sha256(bytes) });
    expect((await patches()).find((p) => p.name === name)?.sha256).toBe(sha256(bytes));
    // the upload is over: no parts, no staged copy, a second completion finds nothing
    expect((await listParts(uploadId)).status).toBe(404);
    expect(await keysOf(name)).toEqual([`resources/${resource.id}/${name}.bin`]);
  });

  it('refuses an ETag that is not the part S3 holds: accepted, then FAILED 400 by the check, and nothing is left', async () => {
    const name = uniq('mp-etag');
    const bytes = randomBytes(8 * MiB + 10);
    const s = await start(name, bytes.length);
    const urls = await presign(s.body.uploadId, [1, 2]);
    const e1 = await putPart(urls.body.urls[0]!.url, bytes.subarray(0, 8 * MiB));
    await putPart(urls.body.urls[1]!.url, bytes.subarray(8 * MiB));
    const r = await refusedAfterCheck(s.body.uploadId, [
      { partNumber: 1, etag: e1 },
      { partNumber: 2, etag: `"${'0'.repeat(32)}"` },
    ]);
    expect(r.statusCode).toBe(400);
    expect(r.errorMessage).toMatch(/ETag does not match/);
    await expectNothingLeft(s.body.uploadId, name);
  });

  it('refuses a part other than the last under 5 MiB (S3 EntityTooSmall): FAILED 400 by the check, nothing left', async () => {
    const name = uniq('mp-small');
    const bytes = randomBytes(8 * MiB + 10);
    const s = await start(name, bytes.length);
    const urls = await presign(s.body.uploadId, [1, 2]);
    // the client cuts the file wrongly: 10 bytes, then the rest
    const e1 = await putPart(urls.body.urls[0]!.url, bytes.subarray(0, 10));
    const e2 = await putPart(urls.body.urls[1]!.url, bytes.subarray(10));
    const r = await refusedAfterCheck(s.body.uploadId, [
      { partNumber: 1, etag: e1 },
      { partNumber: 2, etag: e2 },
    ]);
    expect(r.statusCode).toBe(400);
    expect(r.errorMessage).toMatch(/smaller than 5 MiB/);
    await expectNothingLeft(s.body.uploadId, name);
  });

  it('refuses parts that add up to another size than declared: FAILED 406 by the check, nothing left', async () => {
    const name = uniq('mp-size');
    const declared = 8 * MiB + 1000;
    const bytes = randomBytes(declared - 1);
    const s = await start(name, declared);
    const urls = await presign(s.body.uploadId, [1, 2]);
    const e1 = await putPart(urls.body.urls[0]!.url, bytes.subarray(0, 8 * MiB));
    const e2 = await putPart(urls.body.urls[1]!.url, bytes.subarray(8 * MiB));
    const r = await refusedAfterCheck(s.body.uploadId, [
      { partNumber: 1, etag: e1 },
      { partNumber: 2, etag: e2 },
    ]);
    expect(r.statusCode).toBe(406);
    expect(r.errorMessage).toBe(
      `The uploaded resource file has ${declared - 1} bytes but ${declared} were declared`,
    );
    await expectNothingLeft(s.body.uploadId, name);
  });

  it('refuses a part list that is not 1..partCount in order, before S3 sees it; the upload stays usable', async () => {
    const name = uniq('mp-list');
    const bytes = randomBytes(8 * MiB + 5);
    const s = await start(name, bytes.length);
    const urls = await presign(s.body.uploadId, [1, 2]);
    const e1 = await putPart(urls.body.urls[0]!.url, bytes.subarray(0, 8 * MiB));
    const e2 = await putPart(urls.body.urls[1]!.url, bytes.subarray(8 * MiB));
    for (const parts of [
      [{ partNumber: 1, etag: e1 }],
      [
        { partNumber: 2, etag: e2 },
        { partNumber: 1, etag: e1 },
      ],
    ]) {
      const r = await complete(s.body.uploadId, parts);
      expect(r.status).toBe(400);
      expect(r.body.errorMessage).toMatch(/^The upload has 2 parts: send each part number from 1 to 2 once/);
    }
    expect((await listParts(s.body.uploadId)).body.parts).toHaveLength(2);
    const ok = await complete(s.body.uploadId, [
      { partNumber: 1, etag: e1 },
      { partNumber: 2, etag: e2 },
    ]);
    const done = await settled(dev, ok);
    expect(jsonText<Resource>(done.resource).sha256).toBe(sha256(bytes));
  });

  it('answers URLs for existing parts only, to the requester only; the wrong completion route is refused', async () => {
    const name = uniq('mp-guard');
    const s = await start(name, 8 * MiB + 1);
    const id = s.body.uploadId;
    const beyond = await presign(id, [3]);
    expect(beyond.status).toBe(400);
    expect(beyond.body.errorMessage).toBe('The upload has 2 parts; there is no part 3');
    expect((await presign(id, [0])).status).toBe(400);
    expect((await presign(id, [1], test)).status).toBe(403);
    expect((await listParts(id, test)).status).toBe(403);
    expect((await abort(id, test)).status).toBe(403);
    const single = await api<Err>(`/resources/uploads/${id}/confirm`, { method: 'POST', token: dev });
    expect(single.status).toBe(400);
    expect(single.body.errorMessage).toMatch(/complete it with its parts/);
    expect((await listParts(id)).status).toBe(200);
  });

  it('cancels an upload: S3 drops its parts, nothing stays', async () => {
    const name = uniq('mp-abort');
    const s = await start(name, 8 * MiB + 1);
    const urls = await presign(s.body.uploadId, [1]);
    await putPart(urls.body.urls[0]!.url, randomBytes(8 * MiB));
    expect((await listParts(s.body.uploadId)).body.parts).toHaveLength(1);
    const r = await abort(s.body.uploadId);
    expect(r.status).toBe(200);
    await expectNothingLeft(s.body.uploadId, name);
  });

  it('accepts up to 10 GiB and refuses more before any byte is sent', async () => {
    const ok = await start(uniq('mp-10g'), 10 * 1024 ** 3);
    expect(ok.status).toBe(201);
    expect(ok.body.partCount).toBe(1280);
    expect((await abort(ok.body.uploadId)).status).toBe(200);
    const tooBig = await start(uniq('mp-big'), 10 * 1024 ** 3 + 1);
    expect(tooBig.status).toBe(413);
  });
});
