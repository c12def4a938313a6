import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startSes, stopAll } from '../../infra/local/emulators';
import { localTable, SES_EMULATOR } from '../../infra/local/local-aws';
import type { Package } from '../../shared/api/contracts/packages';
import type { Resource } from '../../shared/api/contracts/resources';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { apiAt, jsonText, SEEDED, uniq } from '../support/api';
import { seededApproverKeys } from '../support/package-flow';
import { type StackProcess, startStackProcess } from '../support/stack-process';
import { dynamoAt, scanAll } from '../support/store';

/**
 * Workflow mail goes through the durable outbox (decision 095): a stack of its own whose mail service
 * is stopped and started again. While SES is down the workflow goes on; the mails arrive once it is back,
 * exactly once per recipient; a mail that fails every try shows on the package and in its history.
 */
interface EmulatorEntry {
  name: string;
  pid: number;
  port: number;
}

// six tries, 0.5 s doubling to at most 4 s apart: a mail is given up about 11.5 s after its first try
const RETRY = { MAIL_MAX_ATTEMPTS: '6', MAIL_RETRY_BASE_MS: '500', MAIL_RETRY_MAX_MS: '4000' };

let stack: StackProcess;
let ses: EmulatorEntry;
const restarted: Emulator[] = [];
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

const call = <T = Record<string, unknown>>(path: string, opts: Parameters<typeof apiAt>[2] = {}) =>
  apiAt<T>(stack.url, path, opts);

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

async function stopSes() {
  process.kill(ses.pid, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (await portOpen(ses.port)) {
    if (Date.now() > deadline) throw new Error('SES emulator still listening');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function restartSes() {
  const e = await startSes(ses.port);
  restarted.push(e);
  ses = { ...ses, pid: e.process.pid! };
}

interface StoredMail {
  subject: string;
  destination: { to: string[] };
}
async function mailbox(): Promise<StoredMail[]> {
  const r = await fetch(`${stack.mailboxUrl.replace(/\/$/, '')}/store`);
  return ((await r.json()) as { emails: StoredMail[] }).emails;
}

/** Runs `npm run ops:redrive -- --local` against this test's stack; its exit code and output. */
async function redrive(): Promise<{ code: number; out: string }> {
  try {
    const r = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/redrive.ts', '--local', '--data-dir', stack.dataDir],
      { cwd: resolve(import.meta.dirname, '..', '..') },
    );
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: `${err.stdout}${err.stderr}` };
  }
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function outboxOf(packageId: string) {
  const items = await scanAll(dynamoAt(stack.dynamoEndpoint), localTable('outbox'));
  return items.filter((i) => i.packageId === packageId);
}

async function login(email: string) {
  const r = await call<{ token: string; user: string }>('/user/login', {
    method: 'POST',
    body: { login: email, password: SEED_PASSWORD },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { token: r.body.token, id: jsonText<{ id: string }>(r.body.user).id };
}

/** A DRAFT dev package with a DCC, ready to be sent for approval. */
async function draftPackage(): Promise<Package> {
  const name = uniq('outbox-patch');
  const form = new FormData();
  form.append('resourceFile', new Blob([new Uint8Array(randomBytes(2048))]), `${name}.bin`);
  const up = await call<{ resource: string }>(`/resources/patch/dev?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    token: tokens.designDev,
    body: form,
  });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  const resource = jsonText<Resource>(up.body.resource);
  const gen = await call<{ package: string }>(`/resources/${resource.id}/generate-package`, {
    method: 'POST',
    token: tokens.designDev,
    body: { packageName: uniq('outbox-pkg'), packageType: 'DEV_UNSIGNED', note: 'mail outage' },
  });
  expect(gen.status, JSON.stringify(gen.body)).toBe(201);
  const pkg = jsonText<Package>(gen.body.package);
  const dcc = await call<{ dccUuid: string }>('/dcc', {
    method: 'POST',
    token: tokens.designDev,
    body: { deviceId: uniq('dev'), telemetryType: 'TelA', messageLimit: 64, deviceLimit: 64 },
  });
  const attach = await call(`/packages/${pkg.id}/dcc/${dcc.body.dccUuid}`, {
    method: 'POST',
    token: tokens.designDev,
  });
  expect(attach.status).toBe(200);
  return pkg;
}

/** The policy's approvers of a development package (decision 272), in the order they may approve. */
const APPROVERS = () =>
  seededApproverKeys('DEV_UNSIGNED').map(({ role, key }) => ({
    role,
    key,
    id: ids[key],
    email: SEEDED[key],
  }));

const notify = (packageId: string) =>
  call<{ package: string }>(`/packages/${packageId}/notify-approvers`, {
    method: 'POST',
    token: tokens.designDev,
    body: { approvers: APPROVERS().map(({ role, id }) => ({ role, id })) },
  });

async function packageAsListed(id: string): Promise<Package | undefined> {
  const r = await call<{ packages: string }>('/dev/packages', { token: tokens.designDev });
  return jsonText<Package[]>(r.body.packages).find((p) => p.id === id);
}

beforeAll(async () => {
  stack = await startStackProcess(RETRY);
  const entries = JSON.parse(readFileSync(join(stack.dataDir, 'emulators.json'), 'utf8')) as EmulatorEntry[];
  ses = entries.find((e) => e.name === SES_EMULATOR.name)!;
  for (const [k, email] of Object.entries({
    designDev: SEEDED.designDev,
    designTest: SEEDED.designTest,
    lead: SEEDED.lead,
    reliability: SEEDED.reliability,
    release: SEEDED.release,
    admin: SEEDED.admin,
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

describe('workflow mail while the mail service is down', () => {
  it('sends a package to approval at once, and mails each approver exactly once when the service is back', async () => {
    const pkg = await draftPackage();
    await stopSes();

    const r = await notify(pkg.id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(jsonText<Package>(r.body.package).status).toBe('PENDING_APPROVAL');
    expect((await packageAsListed(pkg.id))?.status).toBe('PENDING_APPROVAL');
    const waiting = await call<{ packages: string }>('/dev/packages/approval', { token: tokens.lead });
    expect(jsonText<Package[]>(waiting.body.packages).map((p) => p.id)).toContain(pkg.id);

    // the state change committed with one outbox item per approver, and the worker is already retrying
    const items = await outboxOf(pkg.id);
    expect(items.map((i) => i.to).sort()).toEqual(
      APPROVERS()
        .map((a) => a.email)
        .sort(),
    );
    await waitFor('a failed try', async () =>
      (await outboxOf(pkg.id)).some((i) => Number(i.attempts) >= 1 && i.lastError) ? true : undefined,
    );
    expect((await outboxOf(pkg.id)).every((i) => i.status === 'PENDING')).toBe(true);

    await restartSes();
    const mine = (m: StoredMail) => m.subject === `Approval requested: package ${pkg.name}`;
    await waitFor('every approver mailed', async () =>
      (await mailbox()).filter(mine).length >= APPROVERS().length ? true : undefined,
    );
    await waitFor('every outbox item sent', async () =>
      (await outboxOf(pkg.id)).every((i) => i.status === 'SENT') ? true : undefined,
    );
    // settle: nothing more arrives for this event
    await new Promise((r) => setTimeout(r, 1500));
    const got = (await mailbox()).filter(mine).flatMap((m) => m.destination.to);
    expect(got.sort()).toEqual(
      APPROVERS()
        .map((a) => a.email)
        .sort(),
    );
    expect((await packageAsListed(pkg.id))?.mailFailures).toBeUndefined();
  }, 120_000);

  it('shows a mail that failed every try on the package and in its history, and goes on with the workflow', async () => {
    const pkg = await draftPackage();
    await stopSes();
    try {
      const r = await notify(pkg.id);
      expect(r.status, JSON.stringify(r.body)).toBe(200);

      const failed = await waitFor(
        'the failures on the package',
        async () => {
          const p = await packageAsListed(pkg.id);
          return (p?.mailFailures?.length ?? 0) >= APPROVERS().length ? p : undefined;
        },
        60_000,
      );
      expect(failed.status).toBe('PENDING_APPROVAL');
      expect(failed.mailFailures!.map((f) => f.to).sort()).toEqual(
        APPROVERS()
          .map((a) => a.email)
          .sort(),
      );
      for (const f of failed.mailFailures!) {
        expect(f.subject).toBe(`Approval requested: package ${pkg.name}`);
        expect(f.reason.length).toBeGreaterThan(0);
        expect(Number.isNaN(Date.parse(f.at))).toBe(false);
      }
      const items = await outboxOf(pkg.id);
      expect(items.map((i) => [i.status, i.attempts])).toEqual(items.map(() => ['FAILED', 6]));

      const h = await waitFor('the history', async () => {
        const res = await call<{ history: string; brokenAtSeq: number | null }>(
          `/packages/${pkg.id}/history`,
          {
            token: tokens.designDev,
          },
        );
        const events = jsonText<{ action: string; details?: { to?: string } }[]>(res.body.history);
        return events.filter((e) => e.action === 'MAIL_FAILED').length >= APPROVERS().length
          ? { res, events }
          : undefined;
      });
      expect(
        h.events
          .filter((e) => e.action === 'MAIL_FAILED')
          .map((e) => e.details?.to)
          .sort(),
      ).toEqual(
        APPROVERS()
          .map((a) => a.email)
          .sort(),
      );
      expect(h.res.body.brokenAtSeq ?? null).toBeNull();

      // the approvers can still act on it (the first in the policy's order approves)
      const approve = await call(`/packages/${pkg.id}/approve`, {
        method: 'POST',
        token: tokens[APPROVERS()[0]!.key],
      });
      expect(approve.status, JSON.stringify(approve.body)).toBe(202);
    } finally {
      await restartSes();
    }
    // a mail given up is not sent later
    await new Promise((r) => setTimeout(r, 1500));
    expect((await mailbox()).filter((m) => m.subject.includes(pkg.name))).toEqual([]);
  }, 120_000);
});

describe('npm run ops:redrive', () => {
  it('sends the mails the outbox gave up on once the mail service is back, and takes them off the package', async () => {
    const pkg = await draftPackage();
    const subject = `Approval requested: package ${pkg.name}`;
    const emails = APPROVERS()
      .map((a) => a.email)
      .sort();
    await stopSes();
    try {
      expect((await notify(pkg.id)).status).toBe(200);
      await waitFor(
        'every mail FAILED',
        async () => {
          const items = await outboxOf(pkg.id);
          return items.length === APPROVERS().length && items.every((i) => i.status === 'FAILED')
            ? true
            : undefined;
        },
        60_000,
      );
    } finally {
      await restartSes();
    }
    // FAILED with the reason, and visible to the initiator (their list) and to admins (all packages)
    const failed = await packageAsListed(pkg.id);
    expect(failed?.mailFailures?.map((f) => f.to).sort()).toEqual(emails);
    const adminList = await call<{ packages: string }>('/admin/packages', { token: tokens.admin });
    expect(adminList.status).toBe(200);
    const asAdmin = jsonText<Package[]>(adminList.body.packages).find((p) => p.id === pkg.id);
    expect(asAdmin?.mailFailures?.map((f) => f.to).sort()).toEqual(emails);
    expect(asAdmin?.mailFailures?.every((f) => f.reason.length > 0)).toBe(true);

    const r = await redrive();
    expect(r.code, r.out).toBe(0);
    // (the mails the test before gave up on are queued again too)
    expect(r.out).toMatch(/\d+ failed mails queued again/);
    expect(r.out.split(subject).length - 1).toBe(APPROVERS().length);

    const mine = (m: StoredMail) => m.subject === subject;
    await waitFor('every approver mailed', async () =>
      (await mailbox()).filter(mine).length >= APPROVERS().length ? true : undefined,
    );
    const items = await waitFor('the redriven items sent', async () => {
      const all = await outboxOf(pkg.id);
      const fresh = all.filter((i) => i.redriveOf);
      return fresh.length === APPROVERS().length && fresh.every((i) => i.status === 'SENT') ? all : undefined;
    });
    // the failed items say where they went; the package no longer shows them failed
    for (const old of items.filter((i) => !i.redriveOf)) {
      expect(old.status).toBe('FAILED');
      expect(items.find((i) => i.id === old.redrivenTo)?.status).toBe('SENT');
    }
    expect((await packageAsListed(pkg.id))?.mailFailures).toBeUndefined();
    expect(
      (await mailbox())
        .filter(mine)
        .flatMap((m) => m.destination.to)
        .sort(),
    ).toEqual(emails);

    const h = await call<{ history: string }>(`/packages/${pkg.id}/history`, { token: tokens.designDev });
    const events = jsonText<{ action: string; details?: { to?: string } }[]>(h.body.history);
    expect(
      events
        .filter((e) => e.action === 'MAIL_REDRIVEN')
        .map((e) => e.details?.to)
        .sort(),
    ).toEqual(emails);

    // a second run finds nothing of this package to send again
    const again = await redrive();
    expect(again.code, again.out).toBe(0);
    expect(again.out).not.toContain(subject);
  }, 180_000);
});
