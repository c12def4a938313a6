import { describe, expect, it } from 'vitest';
import type { AuditEvent, Recorded } from '../ports/audit-log';
import type { OutboxItem, OutboxStore, RedriveStore } from '../ports/mail-outbox';
import type { Mail } from '../ports/mailer';
import type { MailFailure } from '../ports/package-repository';
import { MailOutboxWorker, type MailRetryPolicy, retryDelayMs } from './mail-outbox-worker';
import { redriveId, redriveMails } from './mail-redrive';

/**
 * An in-memory outbox with the same conditional rules as the DynamoDB one; a failure and a redrive commit
 * their events with them (`audited`), as the adapter's one transaction does.
 */
class MemoryOutbox implements OutboxStore, RedriveStore {
  items = new Map<string, OutboxItem>();
  failures: MailFailure[] = [];
  readonly audited: AuditEvent[] = [];

  add(id: string): OutboxItem {
    const item: OutboxItem = {
      id,
      packageId: 'p1',
      event: 'APPROVAL_REQUESTED',
      toUserId: 'u1',
      to: 'a@example.com',
      subject: 'Approval requested: package P',
      text: 'Hello',
      createdAt: '2026-01-01T00:00:00.000Z',
      status: 'PENDING',
      attempts: 0,
    };
    this.items.set(id, item);
    return item;
  }
  async get(id: string) {
    const i = this.items.get(id);
    return i ? { ...i } : null;
  }
  async claim(id: string, attempts: number, leaseUntil: string) {
    const i = this.items.get(id);
    if (!i || i.status !== 'PENDING' || i.attempts !== attempts) return false;
    Object.assign(i, { attempts: attempts + 1, leaseUntil });
    return true;
  }
  async markSent(id: string, attempt: number) {
    const i = this.items.get(id);
    if (!i || i.status !== 'PENDING' || i.attempts !== attempt) return false;
    Object.assign(i, { status: 'SENT', leaseUntil: undefined, nextAttemptAt: undefined });
    return true;
  }
  async markRetry(id: string, attempt: number, reason: string, nextAttemptAt: string) {
    const i = this.items.get(id);
    if (!i || i.status !== 'PENDING' || i.attempts !== attempt) return;
    Object.assign(i, { lastError: reason, nextAttemptAt, leaseUntil: undefined });
  }
  /** the next markFailed throws (the table did not answer): nothing of it is written */
  failNextWrite = false;
  async markFailed(item: OutboxItem, attempt: number | null, failure: MailFailure, commit: Recorded = {}) {
    if (this.failNextWrite) {
      this.failNextWrite = false;
      throw new Error('outbox table unavailable');
    }
    const i = this.items.get(item.id);
    if (i?.status !== 'PENDING' || (attempt !== null && i.attempts !== attempt)) return false;
    // the adapter's one transaction: status, the package's failure and the events
    Object.assign(i, {
      status: 'FAILED',
      lastError: failure.reason,
      leaseUntil: undefined,
      auditedAt: failure.at,
    });
    this.failures.push(failure);
    this.audited.push(...(commit.events ?? []));
    return true;
  }
  async markAudited(id: string, at: Date, commit: Recorded = {}) {
    const i = this.items.get(id);
    if (i?.status !== 'FAILED' || i.auditedAt) return false;
    i.auditedAt = at.toISOString();
    this.audited.push(...(commit.events ?? []));
    return true;
  }
  async unsettled() {
    return [...this.items.values()]
      .filter((i) => (i.status === 'FAILED' || i.status === 'PENDING') && !i.redrivenAt)
      .map((i) => ({ ...i }));
  }
  async redrive(item: OutboxItem, fresh: OutboxItem, at: Date, commit: Recorded = {}) {
    const i = this.items.get(item.id);
    if (i?.status !== 'FAILED' || i.redrivenAt || this.items.has(fresh.id)) return false;
    Object.assign(i, { redrivenAt: at.toISOString(), redrivenTo: fresh.id });
    this.items.set(fresh.id, { ...fresh });
    this.failures = this.failures.filter((f) => !(f.to === item.to && f.subject === item.subject));
    this.audited.push(...(commit.events ?? []));
    return true;
  }
}

const POLICY: MailRetryPolicy = { maxAttempts: 3, baseDelayMs: 1000, maxDelayMs: 3000, leaseMs: 60_000 };

function setup(opts: { failures?: number } = {}) {
  let now = Date.parse('2026-01-01T00:00:00.000Z');
  const store = new MemoryOutbox();
  const sent: Mail[] = [];
  let toFail = opts.failures ?? 0;
  const audited = store.audited;
  const slept: number[] = [];
  const worker = new MailOutboxWorker({
    store,
    mailer: {
      send: async (m) => {
        if (toFail > 0) {
          toFail -= 1;
          throw Object.assign(new Error('Email address is not verified'), { name: 'MessageRejected' });
        }
        sent.push(m);
      },
    },
    clock: { now: () => new Date(now) },
    policy: POLICY,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  });
  return {
    store,
    sent,
    audited,
    slept,
    worker,
  };
}

describe('mail outbox worker', () => {
  it('sends a pending mail once and marks it SENT', async () => {
    const { store, sent, worker } = setup();
    store.add('m1');
    expect(await worker.process('m1', 60_000)).toBe('done');
    expect(sent.map((m) => m.to)).toEqual(['a@example.com']);
    expect(store.items.get('m1')).toMatchObject({ status: 'SENT', attempts: 1 });
  });

  it('does not send again when the same record is handed in again', async () => {
    const { store, sent, worker } = setup();
    store.add('m1');
    await worker.process('m1', 60_000);
    expect(await worker.process('m1', 60_000)).toBe('done');
    expect(await worker.process('m1', 60_000)).toBe('done');
    expect(sent).toHaveLength(1);
  });

  it('does not send while another run holds the attempt (a record handed in twice at once)', async () => {
    const { store, sent, worker } = setup();
    store.add('m1');
    // another run claimed the first attempt and is sending
    await store.claim('m1', 0, '2026-01-01T00:01:00.000Z');
    expect(await worker.process('m1', 0)).toBe('retry');
    expect(sent).toHaveLength(0);
  });

  it('asks for a retry after a failed try and waits out the backoff before the next one', async () => {
    const { store, sent, worker, slept } = setup({ failures: 1 });
    store.add('m1');
    expect(await worker.process('m1', 60_000)).toBe('retry');
    expect(store.items.get('m1')).toMatchObject({ status: 'PENDING', attempts: 1 });
    expect(store.items.get('m1')!.lastError).toMatch(/MessageRejected: Email address is not verified/);
    expect(await worker.process('m1', 60_000)).toBe('done');
    expect(slept).toEqual([1000]);
    expect(sent).toHaveLength(1);
    expect(store.items.get('m1')).toMatchObject({ status: 'SENT', attempts: 2 });
  });

  it('waits only as long as the run may, and hands the record back without a try', async () => {
    const { store, sent, worker, slept } = setup({ failures: 1 });
    store.add('m1');
    await worker.process('m1', 60_000);
    expect(await worker.process('m1', 400)).toBe('retry');
    expect(slept).toEqual([400]);
    expect(store.items.get('m1')!.attempts).toBe(1);
    expect(sent).toHaveLength(0);
  });

  it('doubles the wait up to the cap', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(POLICY, n))).toEqual([1000, 2000, 3000, 3000]);
  });

  it('gives a mail up after the last try: on the package, in the audit trail, and never sent later', async () => {
    const { store, sent, audited, worker } = setup({ failures: 3 });
    store.add('m1');
    expect(await worker.process('m1', 60_000)).toBe('retry');
    expect(await worker.process('m1', 60_000)).toBe('retry');
    expect(await worker.process('m1', 60_000)).toBe('done');
    expect(store.items.get('m1')).toMatchObject({ status: 'FAILED', attempts: 3 });
    expect(store.failures).toEqual([
      {
        to: 'a@example.com',
        subject: 'Approval requested: package P',
        reason: 'MessageRejected: Email address is not verified',
        at: expect.any(String),
      },
    ]);
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ subject: 'PKG#p1', action: 'MAIL_FAILED', actorRole: 'SYSTEM' });
    expect(await worker.process('m1', 60_000)).toBe('done');
    expect(sent).toHaveLength(0);
    expect(store.failures).toHaveLength(1);
    expect(audited).toHaveLength(1);
  });

  it('writes no failure without its event: a failed write leaves the mail pending, nothing recorded', async () => {
    const { store, audited, worker } = setup({ failures: 3 });
    store.add('m1');
    await worker.process('m1', 60_000);
    await worker.process('m1', 60_000);
    store.failNextWrite = true;
    await expect(worker.process('m1', 60_000)).rejects.toThrow(/outbox table unavailable/);
    expect(store.items.get('m1')!.status).toBe('PENDING');
    expect([audited.length, store.failures.length]).toEqual([0, 0]);
  });

  it('records, once, the failure of a mail that failed before failures were recorded with it', async () => {
    const { store, audited, worker } = setup();
    Object.assign(store.add('m1'), { status: 'FAILED', attempts: 3, lastError: 'MessageRejected' });
    expect(await worker.process('m1', 60_000)).toBe('done');
    // the stream hands the record in again: recorded already
    expect(await worker.process('m1', 60_000)).toBe('done');
    expect(audited.map((e) => [e.action, e.details?.attempts])).toEqual([['MAIL_FAILED', 3]]);
  });

  it('is done with an item that no longer exists', async () => {
    const { worker, sent } = setup();
    expect(await worker.process('gone', 60_000)).toBe('done');
    expect(sent).toHaveLength(0);
  });
});

describe('giving a mail up from outside its tries', () => {
  it('marks a pending mail FAILED with the reason and its last error, on the package and in the trail', async () => {
    const { store, audited, worker } = setup({ failures: 1 });
    store.add('m1');
    expect(await worker.process('m1', 60_000)).toBe('retry');
    expect(await worker.giveUp('m1', 'Not delivered within 6 hours of being queued')).toBe(true);
    expect(store.items.get('m1')).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect(store.failures).toHaveLength(1);
    expect(store.failures[0]!.reason).toBe(
      'Not delivered within 6 hours of being queued (last error: MessageRejected: Email address is not verified)',
    );
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ action: 'MAIL_FAILED', details: { attempts: 1 } });
  });

  it('leaves a sent or already failed mail alone', async () => {
    const { store, audited, worker } = setup();
    store.add('m1');
    await worker.process('m1', 60_000);
    expect(await worker.giveUp('m1', 'late')).toBe(false);
    expect(await worker.giveUp('gone', 'late')).toBe(false);
    expect(store.items.get('m1')!.status).toBe('SENT');
    expect(audited).toHaveLength(0);
  });
});

describe('redriving failed mails (ops:redrive)', () => {
  const DAY = 24 * 3600 * 1000;
  function redriveSetup(failures = 3) {
    const s = setup({ failures });
    const deps = (now: Date) => ({
      store: s.store,
      worker: s.worker,
      clock: { now: () => now },
      staleAfterMs: DAY,
    });
    return { ...s, deps };
  }

  it('queues a FAILED mail again as a new item, clears it from the package, and records it', async () => {
    const { store, worker, audited, sent, deps } = redriveSetup(3);
    store.add('m1');
    for (let i = 0; i < 3; i++) await worker.process('m1', 60_000);
    expect(store.failures).toHaveLength(1);

    const r = await redriveMails(deps(new Date('2026-01-01T01:00:00Z')), []);
    expect(r.redriven).toEqual([
      {
        from: 'm1',
        to: redriveId('m1', 1),
        mailTo: 'a@example.com',
        subject: 'Approval requested: package P',
      },
    ]);
    expect(store.items.get('m1')).toMatchObject({ status: 'FAILED', redrivenTo: 'm1~r1' });
    expect(store.items.get('m1~r1')).toMatchObject({
      status: 'PENDING',
      attempts: 0,
      redriveOf: 'm1',
      redriveCount: 1,
    });
    expect(store.failures).toEqual([]);
    expect(audited.map((e) => e.action)).toEqual(['MAIL_FAILED', 'MAIL_REDRIVEN']);

    // the worker sends the new item (the mail service is back); a second redrive finds nothing
    expect(await worker.process('m1~r1', 60_000)).toBe('done');
    expect(sent.map((m) => m.to)).toEqual(['a@example.com']);
    expect((await redriveMails(deps(new Date('2026-01-01T02:00:00Z')), [])).redriven).toEqual([]);
  });

  it('names the second redrive of a mail after the first item', async () => {
    const { store, worker, deps } = redriveSetup(6);
    store.add('m1');
    for (let i = 0; i < 3; i++) await worker.process('m1', 60_000);
    await redriveMails(deps(new Date('2026-01-01T01:00:00Z')), []);
    for (let i = 0; i < 3; i++) await worker.process('m1~r1', 60_000);
    expect(store.items.get('m1~r1')!.status).toBe('FAILED');
    const r = await redriveMails(deps(new Date('2026-01-01T02:00:00Z')), []);
    expect(r.redriven.map((x) => x.to)).toEqual(['m1~r2']);
    expect(store.items.get('m1~r2')).toMatchObject({ redriveOf: 'm1', redriveCount: 2 });
  });

  it('gives up the mails a dead letter names and those stuck past the record age, then queues them again', async () => {
    const { store, audited, deps } = redriveSetup(0);
    store.add('dead');
    store.add('stuck');
    const fresh = store.add('fresh');
    fresh.createdAt = '2026-01-02T00:00:00.000Z';
    const r = await redriveMails(deps(new Date('2026-01-02T06:00:00Z')), ['dead', 'dead']);
    expect(r.givenUp.sort()).toEqual(['dead', 'stuck']);
    expect(r.redriven.map((x) => x.from).sort()).toEqual(['dead', 'stuck']);
    expect(store.items.get('fresh')!.status).toBe('PENDING');
    expect(store.items.get('dead~r1')!.status).toBe('PENDING');
    expect(audited.filter((e) => e.action === 'MAIL_FAILED')).toHaveLength(2);
    expect(audited.filter((e) => e.action === 'MAIL_FAILED').map((e) => e.details?.reason)).toEqual([
      'The mail worker gave up on it (dead-letter queue)',
      'Left pending after the mail worker stopped handling it',
    ]);
  });
});
