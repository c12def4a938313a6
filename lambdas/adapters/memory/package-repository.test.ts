import { describe, expect, it } from 'vitest';
import { verifyChain } from '../../../shared/domain/audit-chain';
import type { OutboxMail, PackageRecord, PlanDecision } from '../../ports/package-repository';
import { MemoryAuditLog } from './audit-log';
import { ManualClock } from './clock';
import { MemoryPackageRepository } from './package-repository';

const entry = (id: string) => ({
  user: { id, name: id, email: `${id}@x`, userRole: 'TECHNICAL_LEADER' as const },
  role: 'TECHNICAL_LEADER' as const,
  approved: false,
  rejected: false,
});

function record(more: Partial<PackageRecord> = {}): PackageRecord {
  return {
    id: 'p1',
    name: 'Pump',
    type: 'DEV_UNSIGNED',
    status: 'PENDING_APPROVAL',
    resourceId: 'r1',
    resourceName: 'R',
    resourceType: 'PATCH',
    resourceStage: 'DEV',
    initiator: { id: 'i', name: 'I', email: 'i@x', userRole: 'DESIGN_ENGINEER_DEV' },
    uploadTime: 't',
    note: 'n',
    signed: false,
    header: {},
    approvers: { a: entry('a'), b: entry('b') },
    approverCount: 2,
    approvedCount: 0,
    deliveryApprovers: {},
    deliveryApproverCount: 0,
    deliveryApprovedCount: 0,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    version: 1,
    ...more,
  };
}

const mail = (id: string): OutboxMail => ({
  id,
  packageId: 'p1',
  event: 'E',
  toUserId: 'i',
  to: 'i@x',
  subject: 's',
  text: 't',
  createdAt: 'now',
});

/** A decision committed alone: the package as the decision leaves it, nothing beside it. */
const alone: PlanDecision = async (decided) => ({ next: decided, commit: {} });

describe('MemoryPackageRepository', () => {
  it('claims a name once (case ignored) and needs the resource', async () => {
    const repo = new MemoryPackageRepository((id) => id === 'r1');
    expect(await repo.create(record())).toBe('ok');
    expect(await repo.create(record({ id: 'p2', name: 'PUMP' }))).toBe('nameTaken');
    expect(await repo.create(record({ id: 'p3', name: 'Other', resourceId: 'r9' }))).toBe('resourceGone');
    expect(repo.resourceRefs.get('r1')).toBe(1);
    await repo.delete(record());
    expect(repo.resourceRefs.get('r1')).toBe(0);
    expect(await repo.create(record({ id: 'p4' }))).toBe('ok');
  });

  it('saves only on the expected version and status, with tasks and mails, or nothing', async () => {
    const repo = new MemoryPackageRepository(() => true);
    await repo.create(record());
    const task = {
      kind: 'APPROVE' as const,
      userId: 'a',
      packageId: 'p1',
      stage: 'DEV' as const,
      createdAt: 'c',
    };
    expect(await repo.save(record({ version: 2 }), { version: 2, status: 'PENDING_APPROVAL' })).toBe(false);
    expect(await repo.save(record({ version: 2 }), { version: 1, status: 'DRAFT' })).toBe(false);
    expect(
      await repo.save(
        record({ version: 2 }),
        { version: 1, status: 'PENDING_APPROVAL' },
        { add: [task], mails: [mail('m1')] },
      ),
    ).toBe(true);
    expect(await repo.taskPackageIds('a', 'APPROVE', 'DEV')).toEqual(['p1']);
    expect(await repo.taskPackageIds('a', 'APPROVE', 'RELEASE')).toEqual([]);
    // a mail id committed before fails the whole write, like the outbox's conditional Put
    expect(
      await repo.save(
        record({ version: 3 }),
        { version: 2, status: 'PENDING_APPROVAL' },
        { removeAll: true, mails: [mail('m1')] },
      ),
    ).toBe(false);
    expect(repo.openTasks()).toHaveLength(1);
    expect(
      await repo.save(
        record({ version: 3 }),
        { version: 2, status: 'PENDING_APPROVAL' },
        { removeAll: true },
      ),
    ).toBe(true);
    expect(repo.openTasks()).toEqual([]);
    expect(repo.outbox.mails.map((m) => m.id)).toEqual(['m1']);
  });

  it('counts a vote once and refuses with the DynamoDB adapter’s reasons', async () => {
    const repo = new MemoryPackageRepository(() => true);
    await repo.create(record());
    const first = await repo.vote('p1', 'a', 'approval', 'at', alone);
    expect(
      first.ok && [first.pkg.approvedCount, first.pkg.version, first.pkg.approvers.a?.decidedAt],
    ).toEqual([1, 2, 'at']);
    expect(await repo.vote('p1', 'a', 'approval', 'at', alone)).toEqual({
      ok: false,
      reason: 'alreadyDecided',
    });
    expect(await repo.vote('p1', 'z', 'approval', 'at', alone)).toEqual({ ok: false, reason: 'notAssigned' });
    expect(await repo.vote('p1', 'b', 'delivery', 'at', alone)).toEqual({ ok: false, reason: 'notAssigned' });
    expect(await repo.vote('nope', 'a', 'approval', 'at', alone)).toEqual({ ok: false, reason: 'notFound' });
    const r = await repo.reject('p1', 'b', 'approval', 'no', 'at2', async (rejected) => ({
      next: rejected,
      commit: { mails: [mail('m2')] },
    }));
    expect(r.ok && [r.pkg.status, r.pkg.rejectionNote, r.pkg.approvers.b?.rejected, r.pkg.version]).toEqual([
      'REJECTED',
      'no',
      true,
      3,
    ]);
    expect(repo.outbox.mails.map((m) => m.id)).toEqual(['m2']);
    await repo.create(record({ id: 'p2', name: 'Two' }));
    expect(await repo.vote('p2', 'a', 'approval', 'at', alone)).toMatchObject({ ok: true });
    await repo.save(record({ id: 'p2', name: 'Two', status: 'APPROVED', version: 3 }), {
      version: 2,
      status: 'PENDING_APPROVAL',
    });
    expect(await repo.vote('p2', 'b', 'approval', 'at', alone)).toEqual({ ok: false, reason: 'notWaiting' });
  });

  it('commits a decision with its plan (events, task, transition) or not at all', async () => {
    const clock = new ManualClock();
    const audit = new MemoryAuditLog(clock);
    const repo = new MemoryPackageRepository(() => true, { audit });
    await repo.create(record());
    const task = {
      kind: 'APPROVE' as const,
      userId: 'a',
      packageId: 'p1',
      stage: 'DEV' as const,
      createdAt: 'c',
    };
    await repo.save(record({ version: 2 }), { version: 1, status: 'PENDING_APPROVAL' }, { add: [task] });
    const event = (action: string, details?: Record<string, unknown>) => ({
      subject: 'PKG#p1',
      action,
      meaning: action,
      actorId: 'a',
      actorName: 'a',
      actorRole: 'TECHNICAL_LEADER',
      details,
    });
    // the plan sees the package as the vote leaves it: its counter is the stored one
    const r = await repo.vote('p1', 'a', 'approval', 'at', async (voted) => ({
      next: { ...voted, status: 'GENERATING', version: voted.version + 1 },
      commit: {
        remove: [{ kind: 'APPROVE', userId: 'a' }],
        events: [event('APPROVED', { approved: `${voted.approvedCount}/2` }), event('FULLY_APPROVED')],
      },
    }));
    expect(r.ok && [r.pkg.status, r.pkg.version, r.pkg.approvedCount]).toEqual(['GENERATING', 4, 1]);
    expect(repo.openTasks()).toEqual([]);
    const { events, head } = await audit.history('PKG#p1');
    expect(events.map((e) => [e.seq, e.action, e.details?.approved])).toEqual([
      [1, 'APPROVED', '1/2'],
      [2, 'FULLY_APPROVED', undefined],
    ]);
    expect(verifyChain(events, head)).toBeNull();
    // refused: the plan is never asked, nothing is recorded
    let asked = false;
    const refused = await repo.vote('p1', 'b', 'approval', 'at', async (voted) => {
      asked = true;
      return { next: voted, commit: { events: [event('APPROVED')] } };
    });
    expect(refused).toEqual({ ok: false, reason: 'notWaiting' });
    expect(asked).toBe(false);
    expect((await audit.history('PKG#p1')).events).toHaveLength(2);
  });

  it('plans a decision again on the new state when another write wins while it plans', async () => {
    const repo = new MemoryPackageRepository(() => true);
    await repo.create(record());
    const counts: number[] = [];
    const r = await repo.vote('p1', 'a', 'approval', 'at', async (voted) => {
      counts.push(voted.approvedCount);
      // b's vote commits while a's plan is being made (its first time only)
      if (counts.length === 1) await repo.vote('p1', 'b', 'approval', 'at', alone);
      return { next: voted, commit: {} };
    });
    expect(counts).toEqual([1, 2]);
    expect(r.ok && r.pkg.approvedCount).toBe(2);
  });
});

describe('MemoryAuditLog', () => {
  it('chains events per subject so the verifier finds them intact', async () => {
    const clock = new ManualClock();
    const log = new MemoryAuditLog(clock);
    const e = {
      subject: 'PKG#1',
      action: 'A',
      meaning: 'm',
      actorId: 'u',
      actorName: 'U',
      actorRole: 'ADMIN',
    };
    log.record([e]);
    clock.advance(1000);
    log.record([
      { ...e, details: { x: 1 } },
      { ...e, subject: 'PKG#2' },
    ]);
    const { events, head } = await log.history('PKG#1');
    expect(events.map((x) => [x.seq, x.at])).toEqual([
      [1, '2026-01-01T09:00:00.000Z'],
      [2, '2026-01-01T09:00:01.000Z'],
    ]);
    expect(verifyChain(events, head)).toBeNull();
    expect(verifyChain(events.slice(0, 1), head)).toBe(2);
    expect(await log.history('PKG#3')).toEqual({ events: [], head: null });
  });
});

describe('lastApproved (decision 246)', () => {
  const dcc = { deviceId: 'DEV-1', telemetryType: 'TelA' as const, messageLimit: 64, deviceLimit: 128 };
  const approvedAt = (at: string) => ({
    a: { ...entry('a'), approved: true, decidedAt: at },
    b: { ...entry('b'), approved: true, decidedAt: at },
  });

  it('answers the newest approved package of the device and resource type, skipping rejected, other devices and itself', async () => {
    const repo = new MemoryPackageRepository(() => true);
    const put = (id: string, more: Partial<PackageRecord>) =>
      repo.create(record({ id, name: id, dcc, dccId: 'd', ...more }));
    await put('old', { status: 'DELIVERED', approvers: approvedAt('2026-01-01T00:00:00Z') });
    await put('mid', { status: 'SIGNED', approvers: approvedAt('2026-01-02T00:00:00Z') });
    await put('rejected', { status: 'REJECTED', approvers: approvedAt('2026-01-03T00:00:00Z') });
    await put('waiting', { status: 'AWAITING_SIGNATURE', approvers: approvedAt('2026-01-04T00:00:00Z') });
    await put('model', {
      status: 'APPROVED',
      resourceType: 'MODEL',
      approvers: approvedAt('2026-01-05T00:00:00Z'),
    });
    await put('other', {
      status: 'APPROVED',
      dcc: { ...dcc, deviceId: 'DEV-2' },
      approvers: approvedAt('2026-01-06T00:00:00Z'),
    });
    expect((await repo.lastApproved('PATCH#DEV-1', { exceptId: 'new' }))?.id).toBe('mid');
    expect((await repo.lastApproved('PATCH#DEV-1', { exceptId: 'mid' }))?.id).toBe('old');
    expect(
      (await repo.lastApproved('PATCH#DEV-1', { exceptId: 'mid', before: '2026-01-02T00:00:00Z' }))?.id,
    ).toBe('old');
    expect(
      await repo.lastApproved('PATCH#DEV-1', { exceptId: 'x', before: '2026-01-01T00:00:00Z' }),
    ).toBeNull();
    expect((await repo.lastApproved('MODEL#DEV-1', { exceptId: 'x' }))?.id).toBe('model');
    expect(await repo.lastApproved('PATCH#DEV-3', { exceptId: 'x' })).toBeNull();
  });
});
