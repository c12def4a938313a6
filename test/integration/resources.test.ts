import { createHash, randomBytes } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { localS3Config } from '../../infra/local/local-aws';
import type { RequestUploadResponse, Resource } from '../../shared/api/contracts/resources';
import { MSG } from '../../shared/messages';
import { api, jsonText, login, SEEDED, uniq } from '../support/api';
import { settled } from '../support/uploads';

/**
 * Resources over HTTP against the local stack: lists, multipart uploads, presigned uploads of files
 * above the API's 10 MB limit, and admin deletion. "Nothing stored" is checked through the lists and
 * directly in the resources bucket (s3rver; its address is the one in the presigned URLs).
 */

const tokens: Record<'dev' | 'test' | 'reliability' | 'admin', string> = {
  dev: '',
  test: '',
  reliability: '',
  admin: '',
};
let s3: S3Client;
let bucket: string;

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const TFL3_MODEL = Buffer.concat([Buffer.from([0x1c, 0, 0, 0]), Buffer.from('TFL3'), randomBytes(64)]);
const METADATA = JSON.stringify({ modelName: 'keyword-spotter', version: '1.4.2' });
const UPLOAD_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

function form(files: Record<string, [string, Uint8Array | string]>): FormData {
  const f = new FormData();
  for (const [field, [name, content]] of Object.entries(files)) {
    f.append(field, new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  }
  return f;
}

function upload(
  type: 'patch' | 'model',
  stage: string,
  name: string | null,
  files: Record<string, [string, Uint8Array | string]>,
  token: string | null = tokens.dev,
) {
  const q = name === null ? '' : `?name=${encodeURIComponent(name)}`;
  return api<{ resource: string; message: string; errorMessage?: string }>(
    `/resources/${type}/${stage}${q}`,
    {
      method: 'POST',
      token,
      body: form(files),
    },
  );
}

const patchFiles = (content: Uint8Array | string = randomBytes(32)) =>
  ({ resourceFile: ['fw.bin', content] }) as Record<string, [string, Uint8Array | string]>;
const modelFiles = (model: Uint8Array = TFL3_MODEL, meta: string = METADATA) =>
  ({ resourceFile: ['model.tflite', model], metadataFile: ['meta.json', meta] }) as Record<
    string,
    [string, Uint8Array | string]
  >;

async function list(type: 'patch' | 'model', stage: string, token = tokens.dev): Promise<Resource[]> {
  const r = await api<{ resources: string }>(`/resources/${type}/${stage}`, { token });
  expect(r.status).toBe(200);
  return jsonText<Resource[]>(r.body.resources);
}

async function adminList(): Promise<Resource[]> {
  const r = await api<{ resources: string }>('/admin/resources', { token: tokens.admin });
  expect(r.status).toBe(200);
  return jsonText<Resource[]>(r.body.resources);
}

async function keys(prefix: string): Promise<string[]> {
  const out: string[] = [];
  let token: string | undefined;
  do {
    const r = await s3.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
    );
    out.push(...(r.Contents ?? []).map((o) => o.Key!));
    token = r.NextContinuationToken;
  } while (token);
  return out;
}

/** Every object under resources/ belongs to a resource that exists: no failed upload left bytes behind. */
async function expectNoOrphans() {
  const ids = new Set((await adminList()).map((r) => r.id));
  const orphans = (await keys('resources/')).filter((k) => !ids.has(k.split('/')[1]!));
  expect(orphans).toEqual([]);
}

function requestUpload(body: Record<string, unknown>, token = tokens.dev) {
  return api<RequestUploadResponse & { errorMessage?: string }>('/resources/uploads', {
    method: 'POST',
    token,
    body,
  });
}

function confirm(uploadId: string, token = tokens.dev) {
  return api<{ uploadId: string; state: string; sizeBytes: number; errorMessage?: string }>(
    `/resources/uploads/${uploadId}/confirm`,
    {
      method: 'POST',
      token,
    },
  );
}

async function put(url: string, bytes: Uint8Array): Promise<number> {
  const r = await fetch(url, { method: 'PUT', body: new Uint8Array(bytes) });
  await r.arrayBuffer();
  return r.status;
}

beforeAll(async () => {
  [tokens.dev, tokens.test, tokens.reliability, tokens.admin] = await Promise.all([
    login(SEEDED.designDev),
    login(SEEDED.designTest),
    login(SEEDED.reliability),
    login(SEEDED.admin),
  ]);
  // The presigned URL tells where the stack's S3 is; nothing is uploaded to this one.
  const probe = await requestUpload({
    name: uniq('probe'),
    resourceType: 'PATCH',
    resourceStage: 'DEV',
    fileName: 'p.bin',
    sizeBytes: 1,
  });
  expect(probe.status).toBe(201);
  const url = new URL(probe.body.resourceUrl);
  bucket = url.pathname.split('/')[1]!;
  s3 = new S3Client(localS3Config(url.origin));
});

describe('upload through the API (multipart)', () => {
  it('uploads a patch and answers 201 with the resource as JSON text', async () => {
    const bytes = randomBytes(1000);
    const name = uniq('patch');
    const r = await upload('patch', 'dev', name, patchFiles(bytes));
    expect(r.status).toBe(201);
    expect(r.body.message).toBe(MSG.uploaded);
    const res = jsonText<Resource>(r.body.resource);
    expect(res).toMatchObject({
      name,
      resourceType: 'PATCH',
      resourceStage: 'DEV',
      uploadedBy: { name: 'Dana Dev' },
      fileName: 'fw.bin',
      sizeBytes: 1000,
      sha256: sha256(bytes),
    });
    expect(res.uploadTime).toMatch(UPLOAD_TIME);
    expect(typeof res.uploadedBy.id).toBe('string');
    expect(res).not.toHaveProperty('objectKey');
    expect(await keys(`resources/${res.id}/`)).toEqual([`resources/${res.id}/fw.bin`]);
  });

  it('uploads a model with its metadata, extensions in any case, as a test engineer', async () => {
    const name = uniq('model');
    const r = await upload(
      'model',
      'RELEASE',
      name,
      { resourceFile: ['KWS.TFLITE', TFL3_MODEL], metadataFile: ['KWS.Json', METADATA] },
      tokens.test,
    );
    expect(r.status).toBe(201);
    const res = jsonText<Resource>(r.body.resource);
    expect(res).toMatchObject({
      name,
      resourceType: 'MODEL',
      resourceStage: 'RELEASE',
      modelName: 'keyword-spotter',
      modelVersion: '1.4.2',
      uploadedBy: { name: 'Tess Tester' },
      sha256: sha256(TFL3_MODEL),
    });
    expect((await keys(`resources/${res.id}/`)).sort()).toEqual([
      `resources/${res.id}/KWS.TFLITE`,
      `resources/${res.id}/metadata/KWS.Json`,
    ]);
  });

  it('trims the name', async () => {
    const name = uniq('trim');
    const r = await upload('patch', 'dev', `   ${name}  `, patchFiles());
    expect(r.status).toBe(201);
    expect(jsonText<Resource>(r.body.resource).name).toBe(name);
  });

  it.each([
    ['missing', null],
    ['blank', '   '],
  ])("refuses a %s name with 400 'Enter resource name!'", async (_, name) => {
    const r = await upload('patch', 'dev', name, patchFiles());
    expect(r.status).toBe(400);
    expect(r.body.errorMessage).toBe(MSG.resourceNameRequired);
  });

  it('refuses an unknown stage with 400', async () => {
    const r = await upload('patch', 'qa', uniq('stage'), patchFiles());
    expect(r.status).toBe(400);
    expect(r.body.errorMessage).toBe("Stage must be 'dev' or 'release'");
  });

  it.each([
    ['a patch that is not .bin', 'patch', { resourceFile: ['fw.hex', 'abc'] }, MSG.fileTypeNotSupported],
    [
      'a model that is not .tflite',
      'model',
      { resourceFile: ['m.bin', TFL3_MODEL], metadataFile: ['m.json', METADATA] },
      MSG.fileTypeNotSupported,
    ],
    [
      'metadata that is not .json',
      'model',
      { resourceFile: ['m.tflite', TFL3_MODEL], metadataFile: ['m.txt', METADATA] },
      MSG.fileTypeNotSupported,
    ],
    ['a missing resource file', 'patch', {}, 'Choose a resource file (.bin)'],
    [
      'a model without metadata',
      'model',
      { resourceFile: ['m.tflite', TFL3_MODEL] },
      'A model needs its metadata file (.json)',
    ],
    [
      'metadata with a patch',
      'patch',
      { resourceFile: ['fw.bin', 'a'], metadataFile: ['m.json', METADATA] },
      'A patch takes no metadata file',
    ],
  ] as const)('refuses %s with 400 and a clear message', async (_, type, files, text) => {
    const r = await upload(type, 'dev', uniq('bad'), files as Record<string, [string, Uint8Array | string]>);
    expect(r.status).toBe(400);
    expect(r.body.errorMessage).toContain(text);
  });

  it('refuses a body that is not multipart/form-data with 400', async () => {
    const r = await api(`/resources/patch/dev?name=${uniq('json')}`, {
      method: 'POST',
      token: tokens.dev,
      body: { resourceFile: 'abc' },
    });
    expect(r.status).toBe(400);
    expect(r.body.errorMessage).toBe('Send the files as multipart/form-data');
  });

  it("refuses an empty file with 406 'File size is too small'", async () => {
    const r = await upload('patch', 'dev', uniq('empty'), patchFiles(new Uint8Array()));
    expect(r.status).toBe(406);
    expect(r.body.errorMessage).toBe(MSG.fileTooSmall);
  });

  it('refuses a model without the TFL3 identifier with 406', async () => {
    const r = await upload('model', 'dev', uniq('notflite'), modelFiles(randomBytes(64)));
    expect(r.status).toBe(406);
    expect(r.body.errorMessage).toBe('The model file is not a TensorFlow Lite model (no TFL3 identifier)');
  });

  it.each([
    ['not JSON', '{ modelName: kws', 'The metadata file is not valid JSON'],
    ['without modelName', '{"version":"1"}', 'modelName'],
    ['without version', '{"modelName":"kws"}', 'version'],
  ])('refuses metadata %s with 406 and the reason', async (_, meta, text) => {
    const r = await upload('model', 'dev', uniq('meta'), modelFiles(TFL3_MODEL, meta));
    expect(r.status).toBe(406);
    expect(r.body.errorMessage).toContain(text);
  });

  it('refuses metadata above the configured 1 MB with 413', async () => {
    const big = JSON.stringify({ modelName: 'm', version: '1', pad: 'x'.repeat(1_000_001) });
    const r = await upload('model', 'dev', uniq('bigmeta'), modelFiles(TFL3_MODEL, big));
    expect(r.status).toBe(413);
    expect(r.body.errorMessage).toContain(MSG.fileTooBig);
  });

  it("refuses a duplicate name (any case) with 409 'already exists' and stores nothing", async () => {
    const name = uniq('dup');
    expect((await upload('patch', 'dev', name, patchFiles())).status).toBe(201);
    const before = await adminList();
    const objectsBefore = await keys('resources/');
    for (const [type, stage, n, files] of [
      ['patch', 'dev', name, patchFiles()],
      ['model', 'release', name.toUpperCase(), modelFiles()],
    ] as const) {
      const r = await upload(type, stage, n, files, tokens.test);
      expect(r.status).toBe(409);
      expect(r.body.errorMessage).toBe(MSG.resourceNameConflict);
      expect(r.body.errorMessage).toContain('already exists');
    }
    expect((await adminList()).map((x) => x.id).sort()).toEqual(before.map((x) => x.id).sort());
    expect((await keys('resources/')).sort()).toEqual(objectsBefore.sort());
    await expectNoOrphans();
  });

  it('refuses anonymous callers with 401 and other roles with 403, storing nothing', async () => {
    const name = uniq('gate');
    const anon = await upload('patch', 'dev', name, patchFiles(), null);
    expect(anon.status).toBe(401);
    for (const token of [tokens.reliability, tokens.admin]) {
      const r = await upload('patch', 'dev', name, patchFiles(), token);
      expect(r.status).toBe(403);
      expect(r.body.errorMessage).toBe('You are not allowed to do this');
    }
    expect((await adminList()).some((x) => x.name === name)).toBe(false);
  });

  it('leaves no bytes behind after all the refusals above', async () => {
    await expectNoOrphans();
  });
});

describe('lists', () => {
  it('lists patches of one stage newest first, the stage in any case, by everyone signed in', async () => {
    const first = jsonText<Resource>(
      (await upload('patch', 'release', uniq('older'), patchFiles())).body.resource,
    );
    await new Promise((r) => setTimeout(r, 1100)); // uploadTime has whole seconds
    const second = jsonText<Resource>(
      (await upload('patch', 'release', uniq('newer'), patchFiles())).body.resource,
    );
    const patches = await list('patch', 'Release', tokens.reliability);
    const ids = patches.map((p) => p.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(ids.indexOf(first.id)).toBeGreaterThanOrEqual(0);
    expect(patches.every((p) => p.resourceType === 'PATCH' && p.resourceStage === 'RELEASE')).toBe(true);
    expect(patches.find((p) => p.id === second.id)).toEqual(second);
    expect((await list('patch', 'dev')).some((p) => p.id === first.id)).toBe(false);
    expect((await list('model', 'release')).some((p) => p.id === first.id)).toBe(false);
    expect((await list('patch', 'release', tokens.admin)).some((p) => p.id === first.id)).toBe(true);
  });

  it('lists models with modelName and modelVersion', async () => {
    const name = uniq('listed-model');
    expect((await upload('model', 'dev', name, modelFiles())).status).toBe(201);
    const m = (await list('model', 'DEV')).find((x) => x.name === name);
    expect(m).toMatchObject({ modelName: 'keyword-spotter', modelVersion: '1.4.2', resourceType: 'MODEL' });
  });

  it('refuses anonymous callers and unknown stages', async () => {
    expect((await api('/resources/patch/dev')).status).toBe(401);
    const r = await api('/resources/model/staging', { token: tokens.dev });
    expect(r.status).toBe(400);
  });
});

describe('presigned upload of files above the 10 MB request limit', () => {
  const patchRequest = (name: string, sizeBytes: number, extra: Record<string, unknown> = {}) => ({
    name,
    resourceType: 'PATCH',
    resourceStage: 'DEV',
    fileName: 'big.bin',
    sizeBytes,
    ...extra,
  });

  it('uploads an 11 MB patch: request URLs, PUT to S3, confirm', async () => {
    const bytes = randomBytes(11 * 1024 * 1024);
    const name = uniq('big');
    const req = await requestUpload(patchRequest(name, bytes.length));
    expect(req.status).toBe(201);
    expect(req.body.metadataUrl).toBeUndefined();
    expect(Date.parse(req.body.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(await put(req.body.resourceUrl, bytes)).toBe(200);
    const c = await confirm(req.body.uploadId);
    expect(c.status).toBe(202);
    expect(c.body).toMatchObject({
      uploadId: req.body.uploadId,
      state: 'VERIFYING',
      sizeBytes: bytes.length,
    });
    const done = await settled(tokens.dev, c);
    expect(done).toMatchObject({ state: 'REGISTERED', message: MSG.uploaded, verifiedBytes: bytes.length });
    const res = jsonText<Resource>(done.resource);
    expect(res).toMatchObject({ name, sizeBytes: bytes.length, sha256: sha256(bytes), fileName: 'big.bin' });
    expect((await list('patch', 'dev')).some((p) => p.id === res.id)).toBe(true);
    expect(await keys(`resources/${res.id}/`)).toEqual([`resources/${res.id}/big.bin`]);
    // the streamed copy out of staging stored exactly the bytes that were hashed
    const stored = await s3.send(
      new GetObjectCommand({ Bucket: bucket, Key: `resources/${res.id}/big.bin` }),
    );
    expect(sha256(await stored.Body!.transformToByteArray())).toBe(sha256(bytes));
    expect(await keys(`staging/${req.body.uploadId}/`)).toEqual([]);
    // one upload makes one resource: a confirmation sent again is the one accepted before
    expect((await confirm(req.body.uploadId)).status).toBe(202);
    expect((await list('patch', 'dev')).filter((p) => p.name === name)).toHaveLength(1);
    // its state is its owner's to read
    const other = await api<{ errorMessage?: string }>(`/resources/uploads/${req.body.uploadId}`, {
      token: tokens.test,
    });
    expect(other.status).toBe(403);
    expect(other.body.errorMessage).toBe('Only the user who requested this upload can see it');
  });

  it('uploads a model and its metadata the same way', async () => {
    const name = uniq('big-model');
    const req = await requestUpload({
      name,
      resourceType: 'model',
      resourceStage: 'release',
      fileName: 'm.TFLite',
      sizeBytes: TFL3_MODEL.length,
      metadataFileName: 'm.json',
      metadataSizeBytes: Buffer.byteLength(METADATA),
    });
    expect(req.status).toBe(201);
    expect(await put(req.body.resourceUrl, TFL3_MODEL)).toBe(200);
    expect(await put(req.body.metadataUrl!, Buffer.from(METADATA))).toBe(200);
    const done = await settled(tokens.dev, await confirm(req.body.uploadId));
    expect(done.state).toBe('REGISTERED');
    expect(jsonText<Resource>(done.resource)).toMatchObject({
      resourceType: 'MODEL',
      resourceStage: 'RELEASE',
      modelName: 'keyword-spotter',
      modelVersion: '1.4.2',
    });
  });

  it('refuses a confirmation by another user and keeps the upload for its owner', async () => {
    const bytes = randomBytes(100);
    const req = await requestUpload(patchRequest(uniq('owned'), bytes.length));
    await put(req.body.resourceUrl, bytes);
    const other = await confirm(req.body.uploadId, tokens.test);
    expect(other.status).toBe(403);
    expect(other.body.errorMessage).toBe('Only the user who requested this upload can confirm it');
    expect((await settled(tokens.dev, await confirm(req.body.uploadId))).state).toBe('REGISTERED');
  });

  it('answers 404 for an unknown upload and for an expired one, whose bytes it removes', async () => {
    const unknown = await confirm('00000000-0000-0000-0000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errorMessage).toBe('Upload not found or expired; request a new upload');
    const bytes = randomBytes(100);
    // long enough for the PUT on a busy machine (the URL expires too), then wait until it has expired
    const req = await requestUpload(patchRequest(uniq('late'), bytes.length, { expiresInSeconds: 5 }));
    expect(await put(req.body.resourceUrl, bytes)).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(req.body.expiresAt) - Date.now()) + 500));
    const late = await confirm(req.body.uploadId);
    expect(late.status).toBe(404);
    expect(await keys(`staging/${req.body.uploadId}/`)).toEqual([]);
  });

  it('refuses a file whose size differs from the declared one, removing everything', async () => {
    const req = await requestUpload(patchRequest(uniq('short'), 1000));
    await put(req.body.resourceUrl, randomBytes(999));
    const c = await confirm(req.body.uploadId);
    expect(c.status).toBe(406);
    expect(c.body.errorMessage).toBe('The uploaded resource file has 999 bytes but 1000 were declared');
    expect(await keys(`staging/${req.body.uploadId}/`)).toEqual([]);
    expect((await confirm(req.body.uploadId)).status).toBe(404);
  });

  it('refuses a confirmation before the bytes were sent with 400', async () => {
    const req = await requestUpload(patchRequest(uniq('nothing'), 10));
    const c = await confirm(req.body.uploadId);
    expect(c.status).toBe(400);
    expect(c.body.errorMessage).toContain('was not uploaded');
  });

  it('refuses a presigned model without TFL3 and bad metadata with 406', async () => {
    const bad = randomBytes(64);
    const req = await requestUpload({
      name: uniq('fake-model'),
      resourceType: 'MODEL',
      resourceStage: 'DEV',
      fileName: 'm.tflite',
      sizeBytes: bad.length,
      metadataFileName: 'm.json',
      metadataSizeBytes: 2,
    });
    await put(req.body.resourceUrl, bad);
    await put(req.body.metadataUrl!, Buffer.from('{}'));
    const c = await confirm(req.body.uploadId);
    expect(c.status).toBe(406);
    expect(c.body.errorMessage).toContain('no TFL3 identifier');
    expect(await keys(`staging/${req.body.uploadId}/`)).toEqual([]);
  });

  it('checks name, type and size before handing out URLs', async () => {
    const taken = jsonText<Resource>(
      (await upload('patch', 'dev', uniq('taken'), patchFiles())).body.resource,
    );
    const cases: [Record<string, unknown>, number, string][] = [
      [patchRequest(taken.name.toUpperCase(), 10), 409, MSG.resourceNameConflict],
      [patchRequest(uniq('ext'), 10, { fileName: 'big.tflite' }), 400, MSG.fileTypeNotSupported],
      [patchRequest(uniq('huge'), 10 * 1024 ** 3 + 1), 413, MSG.fileTooBig],
      [patchRequest(uniq('huge-put'), 5 * 1024 ** 3 + 1), 413, 'one PUT takes at most 5 GiB'],
      [patchRequest(uniq('zero'), 0), 406, MSG.fileTooSmall],
      [patchRequest('  ', 10), 400, MSG.resourceNameRequired],
      [{ ...patchRequest(uniq('m'), 10, { fileName: 'm.tflite' }), resourceType: 'MODEL' }, 400, 'metadata'],
    ];
    for (const [body, status, text] of cases) {
      const r = await requestUpload(body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.errorMessage).toContain(text);
    }
  });

  it('refuses roles that do not upload', async () => {
    const body = patchRequest(uniq('role'), 10);
    expect((await requestUpload(body, tokens.reliability)).status).toBe(403);
    expect((await requestUpload(body, '')).status).toBe(401);
    expect((await confirm('x', tokens.reliability)).status).toBe(403);
  });
});

describe('admin', () => {
  it('lists every resource of every type and stage, for admins only', async () => {
    const all = await adminList();
    expect(new Set(all.map((r) => `${r.resourceType}#${r.resourceStage}`))).toEqual(
      new Set(['PATCH#DEV', 'PATCH#RELEASE', 'MODEL#DEV', 'MODEL#RELEASE']),
    );
    expect((await api('/admin/resources', { token: tokens.dev })).status).toBe(403);
  });

  it('deletes resources with their bytes; the name can be used again', async () => {
    const name = uniq('doomed');
    const a = jsonText<Resource>((await upload('model', 'dev', name, modelFiles())).body.resource);
    const b = jsonText<Resource>(
      (await upload('patch', 'release', uniq('doomed'), patchFiles())).body.resource,
    );
    const r = await api('/admin/resources', { method: 'DELETE', token: tokens.admin, body: [a.id, b.id] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'DELETED', message: MSG.deleted });
    const ids = (await adminList()).map((x) => x.id);
    expect(ids).not.toContain(a.id);
    expect(ids).not.toContain(b.id);
    expect(await keys(`resources/${a.id}/`)).toEqual([]);
    expect(await keys(`resources/${b.id}/`)).toEqual([]);
    expect((await upload('patch', 'dev', name, patchFiles())).status).toBe(201);
  });

  it('answers 404 naming an unknown id and deletes nothing', async () => {
    const keep = jsonText<Resource>((await upload('patch', 'dev', uniq('keep'), patchFiles())).body.resource);
    const r = await api('/admin/resources', {
      method: 'DELETE',
      token: tokens.admin,
      body: { ids: [keep.id, 'no-such-resource'] },
    });
    expect(r.status).toBe(404);
    expect(r.body.errorMessage).toBe('No resource with id no-such-resource');
    expect((await adminList()).some((x) => x.id === keep.id)).toBe(true);
  });

  it('refuses an empty selection and non-admins', async () => {
    const empty = await api('/admin/resources', { method: 'DELETE', token: tokens.admin, body: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.errorMessage).toBe('Select at least one item');
    expect((await api('/admin/resources', { method: 'DELETE', token: tokens.dev, body: ['x'] })).status).toBe(
      403,
    );
  });

  it('refuses to delete a resource a package uses, naming the package', async () => {
    const res = jsonText<Resource>((await upload('patch', 'dev', uniq('used'), patchFiles())).body.resource);
    const packageName = uniq('pkg');
    const gen = await api(`/resources/${res.id}/generate-package`, {
      method: 'POST',
      token: tokens.dev,
      body: { packageName, packageType: 'DEV_UNSIGNED', note: 'keeps its resource' },
    });
    expect(gen.status, JSON.stringify(gen.body)).toBe(201);
    const r = await api('/admin/resources', { method: 'DELETE', token: tokens.admin, body: [res.id] });
    expect(r.status).toBe(409);
    expect(r.body.errorMessage).toContain(`'${packageName}'`);
    expect((await adminList()).some((x) => x.id === res.id)).toBe(true);
    expect((await keys(`resources/${res.id}/`)).length).toBe(1);
  });

  it('leaves no bytes without a resource at the end', async () => {
    await expectNoOrphans();
  });
});
