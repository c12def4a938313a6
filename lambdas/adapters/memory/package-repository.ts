import type { PackageStatus } from '../../../shared/api/contracts/packages';
import type { Stage } from '../../../shared/api/contracts/resources';
import {
  APPROVAL_POLICY,
  type ApprovalPolicy,
  type Decision,
  voteRefusal,
} from '../../../shared/domain/approval-policy';
import { BadRequestError } from '../../../shared/domain/errors';
import { approvalTime, approvedForKey } from '../../../shared/domain/package-changes';
import type { PackageTombstone } from '../../../shared/domain/package-deletion';
import { ROUNDS, type RoundName } from '../../../shared/domain/package-lifecycle';
import type { Recorded } from '../../ports/audit-log';
import { systemClock } from '../../ports/clock';
import type {
  CompactPackage,
  PackageCommit,
  PackageDeletion,
  PackageListName,
  PackageRecord,
  PackageRepository,
  PageRequest,
  PlanDecision,
  Task,
  VoteResult,
} from '../../ports/package-repository';
import { decidedPackage } from '../decided-package';
import { MemoryAuditLog } from './audit-log';
import { MemoryOutbox } from './mail-outbox';

const clone = <T>(v: T): T => structuredClone(v);
const taskId = (t: Pick<Task, 'kind' | 'userId' | 'packageId'>) => `${t.packageId}#${t.kind}#${t.userId}`;

/** A list as an index: its name, which packages it holds and the sort key it orders them by (newest first). */
interface ListIndex {
  name: string;
  holds: (p: PackageRecord) => boolean;
  sortKey: (p: PackageRecord) => string;
}
const byCreated = (p: PackageRecord) => p.createdAt;
const stageIndex = (stage: Stage): ListIndex => ({
  name: `stage#${stage}`,
  holds: (p) => p.resourceStage === stage,
  sortKey: byCreated,
});
const DELIVERY_INDEX: ListIndex = {
  name: 'delivery',
  holds: (p) => !!p.deliveryStartedAt,
  sortKey: (p) => p.deliveryStartedAt ?? '',
};
const ALL_INDEX: ListIndex = { name: 'all', holds: () => true, sortKey: byCreated };

/**
 * The packages table in memory, with the DynamoDB adapter's semantics: a name is claimed once (case
 * ignored), a package counts itself on its resource, every save is conditional on version and status and
 * commits its tasks, outbox mails and audit events with it (or nothing), votes and rejections are atomic
 * and refused with the same reasons, and an invalid page cursor is a BadRequestError.
 */
export class MemoryPackageRepository implements PackageRepository {
  private readonly packages = new Map<string, PackageRecord>();
  private readonly names = new Map<string, string>();
  private readonly tasks = new Map<string, Task>();
  private readonly tombstones = new Map<string, PackageTombstone>();
  /** how many packages use each resource (the resource's `packageRefs`) */
  readonly resourceRefs = new Map<string, number>();

  readonly audit: MemoryAuditLog;
  readonly outbox: MemoryOutbox;
  private readonly policy: ApprovalPolicy;

  /**
   * `resourceExists` answers whether a resource is stored (a package of a missing one is 'resourceGone');
   * `audit` records the events of every write with it (decision 283); `policy` decides who may vote
   * (shared/domain/approval-policy.ts; tests may pass another).
   */
  constructor(
    private readonly resourceExists: (id: string) => boolean | Promise<boolean>,
    opts: { audit?: MemoryAuditLog; outbox?: MemoryOutbox; policy?: ApprovalPolicy } = {},
  ) {
    this.audit = opts.audit ?? new MemoryAuditLog(systemClock);
    this.outbox = opts.outbox ?? new MemoryOutbox();
    this.policy = opts.policy ?? APPROVAL_POLICY;
  }

  /** Open tasks (for assertions). */
  openTasks(): Task[] {
    return [...this.tasks.values()].map(clone);
  }

  async create(pkg: PackageRecord, commit: Recorded = {}): Promise<'ok' | 'nameTaken' | 'resourceGone'> {
    const resourceThere = await this.resourceExists(pkg.resourceId);
    // checked and written with no await in between: nothing can claim the name meanwhile
    if (this.names.has(pkg.name.toLowerCase())) return 'nameTaken';
    if (!resourceThere) return 'resourceGone';
    this.audit.record(commit.events);
    this.names.set(pkg.name.toLowerCase(), pkg.id);
    this.packages.set(pkg.id, clone(pkg));
    this.resourceRefs.set(pkg.resourceId, (this.resourceRefs.get(pkg.resourceId) ?? 0) + 1);
    return 'ok';
  }

  async renameDraft(
    next: PackageRecord,
    expected: { version: number; status: PackageStatus },
    oldName: string,
    commit: Recorded = {},
  ): Promise<'ok' | 'nameTaken' | 'moved'> {
    const cur = this.packages.get(next.id);
    if (!cur || cur.version !== expected.version || cur.status !== expected.status) return 'moved';
    const claim = this.names.get(next.name.toLowerCase());
    if (claim && claim !== next.id) return 'nameTaken';
    this.audit.record(commit.events);
    if (this.names.get(oldName.toLowerCase()) === next.id) this.names.delete(oldName.toLowerCase());
    this.names.set(next.name.toLowerCase(), next.id);
    this.packages.set(next.id, clone(next));
    return 'ok';
  }

  async get(id: string): Promise<PackageRecord | null> {
    const p = this.packages.get(id);
    return p ? clone(p) : null;
  }

  async getMany(ids: string[]): Promise<PackageRecord[]> {
    return [...new Set(ids)].flatMap((id) => {
      const p = this.packages.get(id);
      return p ? [clone(p)] : [];
    });
  }

  private list(index: ListIndex): PackageRecord[] {
    return [...this.packages.values()]
      .filter(index.holds)
      .sort((a, b) => index.sortKey(b).localeCompare(index.sortKey(a)) || b.id.localeCompare(a.id))
      .map(clone);
  }

  /** A page after the cursor's position; the cursor names its list, so another list's cursor is refused. */
  private page(index: ListIndex, req: PageRequest) {
    const all = this.list(index);
    let from = 0;
    if (req.cursor !== undefined) {
      const invalid = new BadRequestError('cursor is not a cursor this list returned');
      let at: unknown;
      try {
        at = JSON.parse(Buffer.from(req.cursor, 'base64url').toString('utf8'));
      } catch {
        throw invalid;
      }
      const c = at as { list?: unknown; id?: unknown; key?: unknown };
      if (typeof c !== 'object' || c === null || c.list !== index.name || typeof c.id !== 'string')
        throw invalid;
      // the position is kept even when its package went meanwhile: continue after its sort key
      const pos = all.findIndex((p) => p.id === c.id);
      from = pos >= 0 ? pos + 1 : all.findIndex((p) => index.sortKey(p) < String(c.key));
      if (from < 0) from = all.length;
    }
    const items = all.slice(from, from + req.limit);
    const last = items.at(-1);
    const more = from + req.limit < all.length && last;
    const next = more
      ? Buffer.from(JSON.stringify({ list: index.name, id: last.id, key: index.sortKey(last) })).toString(
          'base64url',
        )
      : undefined;
    return { items, ...(next ? { next } : {}) };
  }

  listByStage(stage: Stage) {
    return Promise.resolve(this.list(stageIndex(stage)));
  }
  listDelivery() {
    return Promise.resolve(this.list(DELIVERY_INDEX));
  }
  listAll() {
    return Promise.resolve(this.list(ALL_INDEX));
  }
  async listByStagePage(stage: Stage, page: PageRequest) {
    return this.page(stageIndex(stage), page);
  }
  async listDeliveryPage(page: PageRequest) {
    return this.page(DELIVERY_INDEX, page);
  }
  async listAllPage(page: PageRequest) {
    return this.page(ALL_INDEX, page);
  }
  async compactList(list: PackageListName): Promise<CompactPackage[]> {
    const index = list === 'DELIVERY' ? DELIVERY_INDEX : list === 'ALL' ? ALL_INDEX : stageIndex(list);
    return this.list(index).map((p) => ({
      id: p.id,
      name: p.name,
      resourceName: p.resourceName,
      note: p.note,
      resourceType: p.resourceType,
      resourceStage: p.resourceStage,
      signed: p.signed,
      status: p.status,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
      ...(p.deliveryStartedAt ? { deliveryStartedAt: p.deliveryStartedAt } : {}),
    }));
  }
  /** the memory lists are always current: nothing to forget */
  forgetCompact(): void {}
  async draftsOf(userId: string, stage: Stage) {
    return this.list(stageIndex(stage)).filter((p) => p.status === 'DRAFT' && p.initiator.id === userId);
  }
  /** as the byApprovedDevice index (decision 246): approved packages of the key, newest approval first */
  async lastApproved(
    approvedFor: string,
    opts: { before?: string; exceptId: string },
  ): Promise<PackageRecord | null> {
    let best: { p: PackageRecord; at: string } | null = null;
    for (const p of this.packages.values()) {
      const at = approvalTime(p);
      if (!at || p.id === opts.exceptId || approvedForKey(p) !== approvedFor) continue;
      if (opts.before !== undefined && !(at < opts.before)) continue;
      if (!best || at > best.at) best = { p, at };
    }
    return best ? clone(best.p) : null;
  }
  async listByResource(resourceId: string) {
    return this.list({ name: 'resource', holds: (p) => p.resourceId === resourceId, sortKey: byCreated });
  }
  async listByDcc(dccId: string) {
    return this.list({ name: 'dcc', holds: (p) => p.dccId === dccId, sortKey: byCreated });
  }

  async taskPackageIds(userId: string, kind: Task['kind'], stage?: Stage): Promise<string[]> {
    return [...this.tasks.values()]
      .filter((t) => t.userId === userId && t.kind === kind && (!stage || t.stage === stage))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map((t) => t.packageId);
  }

  async save(
    next: PackageRecord,
    expected: { version: number; status: PackageStatus },
    commit: PackageCommit = {},
  ): Promise<boolean> {
    const cur = this.packages.get(next.id);
    if (!cur || cur.version !== expected.version || cur.status !== expected.status) return false;
    return this.commit(next, commit);
  }

  /**
   * Stores `next` with what `commit` carries, in one synchronous step (nothing else runs in between, as
   * nothing else sees a DynamoDB transaction half done); false when a mail of it was committed before.
   */
  private commit(next: PackageRecord, commit: PackageCommit): boolean {
    if (!this.outbox.accepts(commit.mails ?? [])) return false;
    this.packages.set(next.id, clone(next));
    const added = new Set((commit.add ?? []).map(taskId));
    if (commit.removeAll)
      for (const [k, t] of this.tasks) if (t.packageId === next.id && !added.has(k)) this.tasks.delete(k);
    for (const t of commit.remove ?? []) this.tasks.delete(taskId({ ...t, packageId: next.id }));
    for (const t of commit.add ?? []) this.tasks.set(taskId(t), clone(t));
    this.outbox.put(commit.mails ?? []);
    this.audit.record(commit.events);
    return true;
  }

  /**
   * One decision, as the DynamoDB adapter makes it: the policy's rule on the package read, the plan made
   * from the decided package, then the commit, only if the package is still the one read (else again).
   */
  private async decide(
    id: string,
    userId: string,
    round: RoundName,
    decision: Decision,
    at: string,
    plan: PlanDecision,
    note?: string,
  ): Promise<VoteResult> {
    for (;;) {
      const read = this.packages.get(id);
      const refusal = voteRefusal(read, userId, ROUNDS[round], decision, this.policy);
      if (refusal || !read) return { ok: false, reason: refusal ?? 'notFound' };
      const { next, commit } = await plan(decidedPackage(clone(read), userId, round, decision, at, note));
      const now = this.packages.get(id);
      if (now?.version !== read.version) continue;
      if (!this.commit(next, commit)) throw new Error(`a decision on package ${id} was refused by its mails`);
      return { ok: true, pkg: clone(next) };
    }
  }

  vote: PackageRepository['vote'] = (id, userId, round, at, plan) =>
    this.decide(id, userId, round, 'approve', at, plan);

  reject: PackageRepository['reject'] = (id, userId, round, note, at, plan) =>
    this.decide(id, userId, round, 'reject', at, plan, note);

  async generationProgress(id: string, jobId: string, bytesDone: number, runId?: string): Promise<boolean> {
    const p = this.packages.get(id);
    if (!p?.generation || p.status !== 'GENERATING' || p.generation.jobId !== jobId) return false;
    if (runId && p.generationRunId !== runId) return false;
    p.generation.bytesDone = bytesDone;
    return true;
  }

  async claimGeneration(id: string, jobId: string, runId: string): Promise<boolean> {
    const p = this.packages.get(id);
    const g = p?.generation;
    if (p?.status !== 'GENERATING' || g?.jobId !== jobId || g.state !== 'RUNNING') return false;
    if (p.generationRunId && p.generationRunId !== runId) return false;
    p.generationRunId = runId;
    return true;
  }

  async delete(pkg: PackageRecord, deletion: PackageDeletion = {}): Promise<'deleted' | 'gone' | 'moved'> {
    const cur = this.packages.get(pkg.id);
    if (!cur) return 'gone'; // deleted meanwhile by someone else
    if (deletion.onlyIn && !deletion.onlyIn.includes(cur.status)) return 'moved';
    this.packages.delete(pkg.id);
    this.outbox.put(deletion.mails ?? []);
    this.audit.record(deletion.events);
    if (deletion.tombstone) this.tombstones.set(pkg.id, clone(deletion.tombstone));
    for (const [k, t] of this.tasks) if (t.packageId === pkg.id) this.tasks.delete(k);
    if (this.names.get(pkg.name.toLowerCase()) === pkg.id) this.names.delete(pkg.name.toLowerCase());
    this.resourceRefs.set(cur.resourceId, (this.resourceRefs.get(cur.resourceId) ?? 1) - 1);
    return 'deleted';
  }

  async tombstone(id: string): Promise<PackageTombstone | null> {
    const t = this.tombstones.get(id);
    return t ? clone(t) : null;
  }
}
