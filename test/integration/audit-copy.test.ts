import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localBucket, localTable } from '../../infra/local/local-aws';
import { canonicalJson } from '../../shared/domain/audit-chain';
import { auditObjectKey } from '../../shared/domain/audit-copy';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { apiAt, SEEDED, uniq } from '../support/api';
import { type StackProcess, startStackProcess } from '../support/stack-process';
import { dynamoAt, s3At } from '../support/store';

/**
 * Every audit event lands in the audit bucket (s3rver here, Object Lock in AWS) through the audit table's
 * stream (decision 097), and `npm run audit:verify --local` checks table and bucket against each other:
 * it passes on an untouched trail and names the event of a tampered or a missing object.
 */
let stack: StackProcess;
const BUCKET = localBucket('audit');
const root = resolve(import.meta.dirname, '..', '..');

const call = <T = Record<string, unknown>>(path: string, opts: Parameters<typeof apiAt>[2] = {}) =>
  apiAt<T>(stack.url, path, opts);

function auditVerify(...more: string[]): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [
        '--import',
        'tsx',
        join(root, 'scripts/audit-verify.ts'),
        '--local',
        '--data-dir',
        stack.dataDir,
        ...more,
      ],
      { cwd: root, env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } },
      (err, stdout, stderr) => done({ code: err ? Number(err.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

async function objectBody(key: string): Promise<string | undefined> {
  try {
    const o = await s3At(stack.s3Endpoint).send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    return await o.Body?.transformToString('utf8');
  } catch {
    return undefined;
  }
}

async function waitForObject(key: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const body = await objectBody(key);
    if (body !== undefined) return body;
    if (Date.now() > deadline) throw new Error(`no object ${key} in the audit bucket`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

let token: string;
const dccs: string[] = [];

beforeAll(async () => {
  stack = await startStackProcess();
  const login = await call<{ token: string }>('/user/login', {
    method: 'POST',
    body: { login: SEEDED.lead, password: SEED_PASSWORD },
  });
  token = login.body.token;
  for (let i = 0; i < 2; i++) {
    const r = await call<{ dccUuid: string }>('/dcc', {
      method: 'POST',
      token,
      body: { deviceId: uniq('audit-dev'), telemetryType: 'BLE', messageLimit: 32, deviceLimit: 64 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    dccs.push(r.body.dccUuid);
  }
}, 180_000);

afterAll(async () => {
  await stack?.stop();
}, 60_000);

describe('the audit trail copy in the audit bucket', () => {
  it('holds every event exactly as the table stores it, with its hash', async () => {
    for (const id of dccs) {
      const body = await waitForObject(auditObjectKey(`DCC#${id}`, 1));
      const r = await dynamoAt(stack.dynamoEndpoint).send(
        new QueryCommand({
          TableName: localTable('audit'),
          KeyConditionExpression: 'pk = :s AND seq = :one',
          ExpressionAttributeValues: { ':s': `DCC#${id}`, ':one': 1 },
        }),
      );
      const { pk: _pk, kind: _kind, ...stored } = r.Items![0]!;
      expect(stored.action).toBe('DCC_CREATED');
      expect(canonicalJson(JSON.parse(body))).toBe(canonicalJson(stored));
      expect(JSON.parse(body).hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('passes audit:verify when table and bucket agree', async () => {
    // the seeded users' and the sign-in's events too: wait until the copy has caught up with everything
    const deadline = Date.now() + 20_000;
    let result = await auditVerify();
    while (result.code !== 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      result = await auditVerify();
    }
    expect(result.out).toMatch(/OK: the table and the bucket agree, and every hash chain is unbroken/);
    expect(result.code, result.out).toBe(0);
  }, 60_000);

  it('fails naming the event when an object was tampered with, and again when one is missing', async () => {
    const s3 = s3At(stack.s3Endpoint);
    const tamperedKey = auditObjectKey(`DCC#${dccs[0]}`, 1);
    const original = await waitForObject(tamperedKey);
    const forged = { ...JSON.parse(original), actorName: 'Somebody Else' };
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: tamperedKey, Body: JSON.stringify(forged) }));
    const tampered = await auditVerify();
    expect(tampered.code, tampered.out).toBe(1);
    expect(tampered.out).toContain(
      `FAIL DCC#${dccs[0]} seq 1: the bucket's copy differs from the table (${tamperedKey}; its own hash does not match its content)`,
    );
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: tamperedKey, Body: original }));
    expect((await auditVerify()).code).toBe(0);

    const missingKey = auditObjectKey(`DCC#${dccs[1]}`, 1);
    const kept = await waitForObject(missingKey);
    await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: missingKey }));
    const missing = await auditVerify();
    expect(missing.code, missing.out).toBe(1);
    expect(missing.out).toContain(`FAIL DCC#${dccs[1]} seq 1: missing in the bucket (${missingKey})`);
    expect(missing.out).toMatch(/1 problem found/);
    // --copy-missing writes what the bucket lacks from the table (never what differs), then checks again
    const repaired = await auditVerify('--copy-missing');
    expect(repaired.out).toContain('Copied 1 event the bucket lacked');
    expect(repaired.code, repaired.out).toBe(0);
    expect(await objectBody(missingKey)).toBe(kept);
  }, 60_000);
});
