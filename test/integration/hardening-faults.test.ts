import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startDynamo, startS3, startSes, stopAll } from '../../infra/local/emulators';
import { DYNAMO_EMULATOR, localBucket, S3_EMULATOR, SES_EMULATOR } from '../../infra/local/local-aws';
import { UNAVAILABLE } from '../../lambdas/services/packages/generation-failure';
import type { Package } from '../../shared/api/contracts/packages';
import type { Resource } from '../../shared/api/contracts/resources';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { type ApiResult, apiAt, jsonText, SEEDED, uniq } from '../support/api';
import { seededApproverKeys, waitForStatus } from '../support/package-flow';
import { type StackProcess, startStackProcess } from '../support/stack-process';
import { dynamoAt, s3At, scanAll, tableOf } from '../support/store';
import { settled } from '../support/uploads';

const DYNAMO = DYNAMO_EMULATOR.name;
const S3 = S3_EMULATOR.name;
const SES = SES_EMULATOR.name;

/**
 * A stack of its own whose emulators are stopped and started again (the pids come from
 * <data>/emulators.json). While a store is down, a call that needs it gets a clear 5xx without internals
 * and leaves nothing half-done; once the store is back, the very same call succeeds.
 */
interface EmulatorEntry {
  name: string;
  pid: number;
  port: number;
}

let stack: StackProcess;
let entries: EmulatorEntry[];
/** emulators this file started again (the stack's own are stopped by stack.stop()) */
const restarted: Emulator[] = [];
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

const call = <T = Record<string, unknown>>(path: string, opts: Parameters<typeof apiAt>[2] = {}) =>
  apiAt<T>(stack.url, path, opts);

function entry(name: string): EmulatorEntry {
  const e = entries.find((x) => x.name === name);
  if (!e) throw new Error(`no emulator ${name} in emulators.json`);
  return e;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** Stops one of the stack's emulators by its pid and waits until its port is closed. */
async function stop(name: string) {
  const e = entry(name);
  process.kill(e.pid, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (await portOpen(e.port)) {
    if (Date.now() > deadline) throw new Error(`${name} still listens on ${e.port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Watches a bucket of the stack's s3rver for a multipart upload that starts after this call: the
 * returned function resolves once its first part is on disk (60 s at most), so a test can stop S3
 * in the middle of the write.
 */
function firstPartWatcher(bucket: string): (what: string) => Promise<void> {
  const uploads = join(stack.dataDir, 's3', bucket, '._S3rver_uploads');
  const before = new Set(existsSync(uploads) ? readdirSync(uploads) : []);
  return async (what) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const started = existsSync(uploads)
        ? readdirSync(uploads).filter((u) => !before.has(u) && existsSync(join(uploads, u, '1')))
        : [];
      if (started.length > 0) return;
      if (Date.now() > deadline) throw new Error(`${what} never started`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
}

const entryUrl = (name: string) => `http://127.0.0.1:${entry(name).port}`;

/** Starts the emulator again on the same port and data folder, as the stack does. */
async function restart(name: string) {
  const { port } = entry(name);
  const e =
    name === DYNAMO
      ? await startDynamo(port, stack.dataDir)
      : name === S3
        ? await startS3(port, stack.dataDir)
        : await startSes(port);
  restarted.push(e);
  entries = entries.map((x) => (x.name === name ? { name, pid: e.process.pid!, port } : x));
}

/** A dependency failure as the caller sees it: 503, a sentence to act on, nothing of the internals. */
function expectCleanOutage(r: ApiResult, what: string) {
  const text = JSON.stringify(r.body);
  expect(r.status, `${what}: ${text}`).toBe(503);
  expect(typeof r.body.errorMessage, what).toBe('string');
  expect(String(r.body.errorMessage)).toMatch(/try again/i);
  expect(text, what).not.toMatch(
    /ECONN|EPIPE|ETIMEDOUT|socket|127\.0\.0\.1|localhost|:\d{4,5}\b|\bS3\b|SES|Dynamo|aws|sdk|Command\b|Exception|\bat .+:\d+|node_modules|stack/i,
  );
}

async function login(email: string) {
  const r = await call<{ token: string; user: string }>('/user/login', {
    method: 'POST',
    body: { login: email, password: SEED_PASSWORD },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { token: r.body.token, id: jsonText<{ id: string }>(r.body.user).id };
}

function patchForm(name: string) {
  const form = new FormData();
  form.append('resourceFile', new Blob([new Uint8Array(randomBytes(4096))]), `${name}.bin`);
  return form;
}

const uploadPatch = (name: string) =>
  call<{ resource: string }>(`/resources/patch/dev?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    token: tokens.designDev,
    body: patchForm(name),
  });

/** Requests a presigned upload of a dev patch and PUTs the bytes to storage; confirming is the caller's. */
async function stagePresigned(name: string, bytes: Buffer) {
  const req = await call<{ uploadId: string; resourceUrl: string }>('/resources/uploads', {
    method: 'POST',
    token: tokens.designDev,
    body: { name, resourceType: 'PATCH', resourceStage: 'DEV', fileName: 'big.bin', sizeBytes: bytes.length },
  });
  expect(req.status, JSON.stringify(req.body)).toBe(201);
  const put = await fetch(req.body.resourceUrl, { method: 'PUT', body: new Uint8Array(bytes) });
  await put.arrayBuffer();
  expect(put.status).toBe(200);
  return () =>
    call(`/resources/uploads/${req.body.uploadId}/confirm`, {
      method: 'POST',
      token: tokens.designDev,
    });
}

/** The policy's approvers of a development package (the seeded users), in the order they may approve. */
const APPROVERS = seededApproverKeys('DEV_UNSIGNED');

/** Sends a package to the policy's approvers (decision 272). */
const notifyAllRoles = (packageId: string) =>
  call(`/packages/${packageId}/notify-approvers`, {
    method: 'POST',
    token: tokens.designDev,
    body: { approvers: APPROVERS.map(({ role, key }) => ({ role, id: ids[key] })) },
  });

beforeAll(async () => {
  // workflow mail retries quickly here, so mail held back by the outage arrives soon after it (decision 095)
  stack = await startStackProcess({ MAIL_RETRY_BASE_MS: '300', MAIL_RETRY_MAX_MS: '2000' });
  entries = JSON.parse(readFileSync(join(stack.dataDir, 'emulators.json'), 'utf8')) as EmulatorEntry[];
  for (const [k, email] of Object.entries({
    designDev: SEEDED.designDev,
    designTest: SEEDED.designTest,
    lead: SEEDED.lead,
    reliability: SEEDED.reliability,
    release: SEEDED.release,
  })) {
    const s = await login(email);
    tokens[k] = s.token;
    ids[k] = s.id;
  }
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await stopAll(restarted);
}, 60_000);

describe('S3 (s3rver) down', () => {
  it('refuses an upload with a clear 503, keeps no record of it, and takes the same upload once S3 is back', async () => {
    const name = uniq('fault-patch');
    await stop(S3);
    const r = await uploadPatch(name);
    expectCleanOutage(r, 'upload while S3 is down');
    // nothing points at bytes that were never written: no resource record, no claim on the name
    const items = await scanAll(dynamoAt(stack.dynamoEndpoint), tableOf('resources'));
    expect(items.filter((i) => i.name === name)).toEqual([]);
    // calls that do not need S3 carry on
    expect((await call('/resources/patch/dev', { token: tokens.lead })).status).toBe(200);

    await restart(S3);
    const again = await uploadPatch(name);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    const listed = jsonText<Resource[]>(
      (await call<{ resources: string }>('/resources/patch/dev', { token: tokens.lead })).body.resources,
    );
    expect(listed.filter((x) => x.name === name)).toHaveLength(1);
  }, 90_000);

  it('a presigned upload whose confirmation meets S3 down can be confirmed again once S3 is back, without uploading again', async () => {
    const name = uniq('fault-big');
    const bytes = randomBytes(256 * 1024);
    const confirm = await stagePresigned(name, bytes);

    await stop(S3);
    expectCleanOutage(await confirm(), 'confirm while S3 is down');
    const items = await scanAll(dynamoAt(stack.dynamoEndpoint), tableOf('resources'));
    expect(items.filter((i) => i.name === name && i.kind === 'RESOURCE')).toEqual([]);

    await restart(S3);
    const again = await settled(tokens.designDev, await confirm(), { call });
    expect(again.state, again.errorMessage).toBe('REGISTERED');
    const resource = jsonText<Resource>(again.resource);
    expect(resource).toMatchObject({ name, sizeBytes: bytes.length });
    expect(resource.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  }, 90_000);
});

describe('S3 (s3rver) stopped in the middle of a request', () => {
  it('an upload whose verification meets S3 stopping mid-copy: after the worker’s retries it says why and is kept, no copy stays, and confirming it again registers it', async () => {
    const name = uniq('fault-verify');
    // 48 MiB in one PUT: the verification copies it out of staging in 8 MiB parts
    const bytes = randomBytes(48 * 1024 * 1024);
    const confirm = await stagePresigned(name, bytes);
    const firstPart = firstPartWatcher(localBucket('resources'));
    const accepted = await confirm();
    expect([accepted.status, accepted.body.state], JSON.stringify(accepted.body)).toEqual([202, 'VERIFYING']);
    const uploadId = String(accepted.body.uploadId);
    await firstPart('the copy out of staging');
    await stop(S3);

    // Lambda's retries fail too; the failure handler keeps the upload with the reason
    const failed = await settled(tokens.designDev, accepted, { call });
    expect(failed).toMatchObject({ state: 'FAILED', retryable: true });
    expect(failed.errorMessage).toBe(
      'The file could not be checked (storage or the database did not answer, after 3 attempts). It is kept: confirm the upload again to retry',
    );
    const dead = readFileSync(join(stack.dataDir, 'dead-letters', 'verify-upload.jsonl'), 'utf8');
    expect(dead).toContain(uploadId);
    const items = await scanAll(dynamoAt(stack.dynamoEndpoint), tableOf('resources'));
    expect(items.filter((i) => i.name === name && i.kind === 'RESOURCE')).toEqual([]);

    await restart(S3);
    const s3 = s3At(entryUrl(S3));
    const copies = await s3.send(
      new ListObjectsV2Command({ Bucket: localBucket('resources'), Prefix: 'resources/' }),
    );
    expect(
      (copies.Contents ?? []).filter((o) => o.Key?.endsWith('/big.bin') && o.Size === bytes.length),
    ).toEqual([]);
    // the same confirmation, without sending the file again
    const again = await settled(tokens.designDev, await confirm(), { call });
    expect(again.state, again.errorMessage).toBe('REGISTERED');
    const resource = jsonText<Resource>(again.resource);
    expect(resource.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    const stored = await s3.send(
      new ListObjectsV2Command({ Bucket: localBucket('resources'), Prefix: `resources/${resource.id}/` }),
    );
    expect((stored.Contents ?? []).map((o) => [o.Key, o.Size])).toEqual([
      [`resources/${resource.id}/big.bin`, bytes.length],
    ]);
  }, 120_000);

  it('a generation whose package is half written when S3 stops: the last approval answers 202 GENERATING, the package returns to PENDING_APPROVAL with the reason, nothing stays in S3, and the decider’s Retry completes it once S3 is back', async () => {
    // 48 MiB: the XML (64 MiB) goes up in 8 parts, so S3 stops while parts are still being written
    const bytes = randomBytes(48 * 1024 * 1024);
    const confirmed = await settled(
      tokens.designDev,
      await (await stagePresigned(uniq('fault-mid'), bytes))(),
      {
        call,
      },
    );
    expect(confirmed.state, confirmed.errorMessage).toBe('REGISTERED');
    const resource = jsonText<Resource>(confirmed.resource);
    const gen = await call<{ package: string }>(`/resources/${resource.id}/generate-package`, {
      method: 'POST',
      token: tokens.designDev,
      body: { packageName: uniq('fault-mid-pkg'), packageType: 'DEV_UNSIGNED', note: 'S3 stops mid-write' },
    });
    expect(gen.status, JSON.stringify(gen.body)).toBe(201);
    const pkg = jsonText<Package>(gen.body.package);
    const dcc = await call<{ dccUuid: string }>('/dcc', {
      method: 'POST',
      token: tokens.designDev,
      body: { deviceId: uniq('dev'), telemetryType: 'TelA', messageLimit: 64, deviceLimit: 64 },
    });
    await call(`/packages/${pkg.id}/dcc/${dcc.body.dccUuid}`, { method: 'POST', token: tokens.designDev });
    const notified = await notifyAllRoles(pkg.id);
    expect(notified.status, JSON.stringify(notified.body)).toBe(200);
    for (const { key } of APPROVERS.slice(0, -1))
      expect((await call(`/packages/${pkg.id}/approve`, { method: 'POST', token: tokens[key] })).status).toBe(
        202,
      );

    // the last approval answers at once; the worker generates the XML, and S3 stops once its first part is on disk
    const firstPart = firstPartWatcher(localBucket('artefacts'));
    const last = await call<{ outcome: string; package: string }>(`/packages/${pkg.id}/approve`, {
      method: 'POST',
      token: tokens[APPROVERS.at(-1)!.key],
    });
    expect([last.status, last.body.outcome], JSON.stringify(last.body)).toEqual([202, 'GENERATING']);
    const answered = jsonText<Package>(last.body.package);
    expect([answered.status, answered.generation?.bytesTotal]).toEqual(['GENERATING', bytes.length]);
    await firstPart('the package upload');
    await stop(S3);

    // after the worker's last retry the package is back where the decision was taken, with the reason
    const failed = await waitForStatus(pkg, tokens.lead!, 'PENDING_APPROVAL', {
      base: stack.url,
      until: (p) => p.generation?.state === 'FAILED',
    });
    expect(failed.generation?.reason).toBe(`${UNAVAILABLE} (after 3 attempts)`);
    expect(failed.approvers.every((a) => a.approved)).toBe(true);
    const stored = (await scanAll(dynamoAt(stack.dynamoEndpoint), tableOf('packages'))).find(
      (i) => i.id === pkg.id && i.kind === 'PACKAGE',
    );
    expect(stored?.status).toBe('PENDING_APPROVAL');
    expect(stored?.artefact).toBeUndefined();
    const history = jsonText<{ action: string; details?: Record<string, unknown> }[]>(
      (await call<{ history: string }>(`/packages/${pkg.id}/history`, { token: tokens.lead })).body.history,
    );
    expect(history.map((e) => e.action)).not.toContain('PACKAGE_GENERATED');
    expect(history.at(-1)).toMatchObject({
      action: 'GENERATION_FAILED',
      details: { reason: failed.generation?.reason, returnedTo: 'PENDING_APPROVAL' },
    });
    // the local dead-letter record of the job (the on-failure SQS queue in AWS): a DEV package's job is
    // the development key's worker's (decision 295)
    const dead = readFileSync(join(stack.dataDir, 'dead-letters', 'generate-dev-artefact.jsonl'), 'utf8');
    expect(dead).toContain(failed.generation!.jobId);

    await restart(S3);
    const s3 = s3At(entryUrl(S3));
    const listed = await s3.send(
      new ListObjectsV2Command({ Bucket: localBucket('artefacts'), Prefix: `packages/${pkg.id}/` }),
    );
    expect(listed.Contents ?? []).toEqual([]);

    // the decider's (the last approver's) Retry; nobody else's, not even another approver's
    const other = await call(`/packages/${pkg.id}/retry-generation`, {
      method: 'POST',
      token: tokens[APPROVERS[0]!.key],
    });
    expect(other.status).toBe(403);
    const again = await call<{ outcome: string }>(`/packages/${pkg.id}/retry-generation`, {
      method: 'POST',
      token: tokens[APPROVERS.at(-1)!.key],
    });
    expect([again.status, again.body.outcome], JSON.stringify(again.body)).toEqual([202, 'GENERATING']);
    const done = await waitForStatus(pkg, tokens.lead!, 'APPROVED', { base: stack.url, timeoutMs: 120_000 });
    expect(done.generation).toBeUndefined();
    const objects = await s3.send(
      new ListObjectsV2Command({ Bucket: localBucket('artefacts'), Prefix: `packages/${pkg.id}/` }),
    );
    expect((objects.Contents ?? []).map((o) => o.Key)).toEqual([done.linkToS3]);
  }, 180_000);
});

describe('SES (aws-ses-v2-local) down', () => {
  it('sends a package to approval anyway (its mails wait in the outbox), refuses a reset with a clear 503, and mails both once it is back', async () => {
    const name = uniq('fault-mail-patch');
    const up = await uploadPatch(name);
    expect(up.status).toBe(201);
    const resource = jsonText<Resource>(up.body.resource);
    const gen = await call<{ package: string }>(`/resources/${resource.id}/generate-package`, {
      method: 'POST',
      token: tokens.designDev,
      body: { packageName: uniq('fault-pkg'), packageType: 'DEV_UNSIGNED', note: 'mail outage' },
    });
    expect(gen.status).toBe(201);
    const pkg = jsonText<Package>(gen.body.package);
    const dcc = await call<{ dccUuid: string }>('/dcc', {
      method: 'POST',
      token: tokens.designDev,
      body: { deviceId: uniq('dev'), telemetryType: 'TelA', messageLimit: 64, deviceLimit: 64 },
    });
    expect(
      (await call(`/packages/${pkg.id}/dcc/${dcc.body.dccUuid}`, { method: 'POST', token: tokens.designDev }))
        .status,
    ).toBe(200);
    const notify = () => notifyAllRoles(pkg.id);

    // a temporary password mailed before the outage must survive a reset that cannot be mailed
    expect(
      (await call('/user/reset-password', { method: 'POST', body: { email: SEEDED.reliability } })).status,
    ).toBe(200);
    const userItem = async () =>
      (await scanAll(dynamoAt(stack.dynamoEndpoint), tableOf('users'))).find(
        (i) => i.kind === 'USER' && i.email === SEEDED.reliability,
      );
    const beforeOutage = await userItem();
    expect(beforeOutage?.tempPasswordHash).toBeTruthy();

    await stop(SES);
    // workflow mail never blocks the workflow (decision 095): the state change commits with its mails
    const during = await notify();
    expect(during.status, JSON.stringify(during.body)).toBe(200);
    expectCleanOutage(
      await call('/user/reset-password', { method: 'POST', body: { email: SEEDED.reliability } }),
      'reset password while SES is down',
    );
    expect(await userItem(), 'the user record after a reset that could not be mailed').toEqual(beforeOutage);
    const moved = jsonText<Package[]>(
      (await call<{ packages: string }>('/dev/packages', { token: tokens.lead })).body.packages,
    ).find((p) => p.id === pkg.id);
    expect(moved?.status).toBe('PENDING_APPROVAL');
    expect(moved?.approvers).toHaveLength(APPROVERS.length);
    const waiting = jsonText<Package[]>(
      (await call<{ packages: string }>('/dev/packages/approval', { token: tokens.lead })).body.packages,
    );
    expect(waiting.map((p) => p.id)).toContain(pkg.id);
    const history = jsonText<{ action: string }[]>(
      (await call<{ history: string }>(`/packages/${pkg.id}/history`, { token: tokens.lead })).body.history,
    );
    expect(history.map((e) => e.action).filter((a) => a === 'APPROVAL_REQUESTED')).toHaveLength(1);
    // a second notify is refused: the package is no longer a draft, nothing is sent twice
    expect((await notify()).status).toBe(409);

    await restart(SES);
    const reset = await call('/user/reset-password', { method: 'POST', body: { email: SEEDED.reliability } });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    const readStore = async () =>
      (await (await fetch(`${stack.mailboxUrl.replace(/\/$/, '')}/store`)).json()) as {
        emails: { subject: string; destination: { to: string[] } }[];
      };
    const deadline = Date.now() + 30_000;
    while ((await readStore()).emails.filter((m) => m.subject.includes(pkg.name)).length < APPROVERS.length) {
      if (Date.now() > deadline) throw new Error('the approval mails did not arrive after the outage');
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 1000));
    const store = await readStore();
    // one approval mail per approver the policy asks for
    expect(store.emails.filter((m) => m.subject.includes(pkg.name))).toHaveLength(APPROVERS.length);
    expect(
      store.emails.filter(
        (m) => m.destination.to.includes(SEEDED.reliability) && /temporary password/.test(m.subject),
      ),
      // the restarted mailbox starts empty: only the reset made after the outage
    ).toHaveLength(1);
  }, 90_000);
});

describe('DynamoDB Local down', () => {
  it('answers reads and writes with a clear 503, stores nothing, and serves the same calls once it is back', async () => {
    const body = { deviceId: uniq('fault-device'), telemetryType: 'BLE', messageLimit: 32, deviceLimit: 512 };
    const before = (await call<{ packages: string }>('/dev/packages', { token: tokens.lead })).body.packages;

    await stop(DYNAMO);
    expectCleanOutage(await call('/dcc', { method: 'POST', token: tokens.lead, body }), 'create DCC');
    expectCleanOutage(await call('/dev/packages', { token: tokens.lead }), 'list packages');
    expectCleanOutage(
      await call('/user/login', { method: 'POST', body: { login: SEEDED.lead, password: SEED_PASSWORD } }),
      'sign in',
    );

    await restart(DYNAMO);
    const created = await call('/dcc', { method: 'POST', token: tokens.lead, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const dccs = jsonText<{ deviceId: string }[]>(
      (await call<{ dcc: string }>('/dcc', { token: tokens.lead })).body.dcc,
    );
    // stored once: the refused call left nothing behind
    expect(dccs.filter((d) => d.deviceId === body.deviceId)).toHaveLength(1);
    // and what was stored before the outage is all there
    expect((await call<{ packages: string }>('/dev/packages', { token: tokens.lead })).body.packages).toBe(
      before,
    );
  }, 120_000);
});
