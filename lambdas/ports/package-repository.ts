import type {
  ApproverEntry,
  PackageFields,
  PackageStatus,
  UserRef,
} from '../../shared/api/contracts/packages';
import type { ResourceType, ResourceUser, Stage } from '../../shared/api/contracts/resources';
import type { VoteRefusal } from '../../shared/domain/approval-policy';
import type { DeletionProposal } from '../../shared/domain/deletion-proposals';
import type { PackageTombstone } from '../../shared/domain/package-deletion';
import type { RoundName } from '../../shared/domain/package-lifecycle';
import type { Recorded } from './audit-log';

/** Where a generated XML package lives. */
export interface ArtefactRef {
  key: string;
  sizeBytes: number;
  sha256: string;
  signed: boolean;
  generatedAt: string;
  /** the signed provenance statement beside the XML (decision 279): every signed package generated since */
  statementKey?: string;
  /**
   * The S3 version of the XML as stored, where the bucket keeps versions (AWS; s3rver keeps none): reads ask
   * for it and checks compare the current one with it (decision 302). `sha256` above is checked always.
   */
  versionId?: string;
  /** the stored statement's SHA-256 and S3 version, pinned like the XML's (absent before decision 302) */
  statementSha256?: string;
  statementVersionId?: string;
}

/** A stored package: the spec's fields plus state, version and the approval maps (keyed by user id). */
export interface PackageRecord extends PackageFields {
  header: unknown;
  approvers: Record<string, ApproverEntry>;
  approverCount: number;
  approvedCount: number;
  deliveryApprovers: Record<string, ApproverEntry>;
  deliveryApproverCount: number;
  deliveryApprovedCount: number;
  deliverer?: UserRef;
  /**
   * who uploaded the package's resource (its `uploadedBy`, pinned at creation): kept out of approving,
   * signing and approving delivery (decision 331). Absent on packages made before; the choice of
   * approvers reads it from the resource then.
   */
  uploader?: ResourceUser;
  artefact?: ArtefactRef;
  deliveryStartedAt?: string;
  /** workflow mails that could not be delivered after every attempt (decision 095) */
  mailFailures?: MailFailure[];
  /** a deletion of this DELIVERED package one admin proposed, waiting for a second admin (decision 336) */
  deletionProposal?: DeletionProposal;
  /** the run that claimed the current generation job (decision 284); storage only, never answered */
  generationRunId?: string;
  version: number;
}

/** A workflow mail that finally failed, as the package shows it to its initiator and admins. */
export interface MailFailure {
  to: string;
  subject: string;
  reason: string;
  at: string;
}

/**
 * A workflow mail committed to the outbox in the same transaction as the state change that causes it
 * (decision 095). `id` is deterministic per event and recipient, so one event never mails a person twice.
 */
export interface OutboxMail {
  id: string;
  packageId: string;
  /** the event, e.g. APPROVAL_REQUESTED */
  event: string;
  toUserId: string;
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

export type TaskKind = 'APPROVE' | 'SIGN' | 'DELIVERY';

export interface Task {
  kind: TaskKind;
  userId: string;
  packageId: string;
  stage: Stage;
  createdAt: string;
}

/**
 * What a package write commits beside the package, in the same transaction (decisions 095, 283): its audit
 * events, tasks opened, closed one by one or all closed, and workflow mails queued.
 */
export interface PackageCommit extends Recorded {
  add?: Task[];
  remove?: Pick<Task, 'kind' | 'userId'>[];
  removeAll?: boolean;
  mails?: OutboxMail[];
}

/**
 * What one decision (a vote, a rejection) commits: the package after it (`next`: the decided package
 * itself, or the transition a last vote causes, with a version above the decided one's) and what goes
 * with it. Planned from the decided package, so every figure in it (`approved: "k/n"`) is the stored one.
 */
export interface DecisionPlan {
  next: PackageRecord;
  commit: PackageCommit;
}

/**
 * Plans a decision's commit from the package as the decision alone leaves it (entry decided, counter and
 * version moved on). Called again whenever a concurrent write wins first, on the package read again.
 */
export type PlanDecision = (decided: PackageRecord) => Promise<DecisionPlan>;

/** What a decision changed: the package as committed, or why it was refused. */
export type VoteResult = { ok: true; pkg: PackageRecord } | { ok: false; reason: VoteRefusal };

/** One page of a list, newest first; `next` (opaque) continues it, absent on the last page. */
export interface Page<T> {
  items: T[];
  next?: string;
}

/** At most `limit` items, after the position `cursor` (a `next` of an earlier page) if given. */
export interface PageRequest {
  limit: number;
  cursor?: string;
}

/** The package lists a list view reads (decision 210): a stage's, the delivery list, all packages. */
export type PackageListName = Stage | 'DELIVERY' | 'ALL';

/** A package's entry in the compact list index: the fields the lists search and sort by (decision 210). */
export interface CompactPackage {
  id: string;
  name: string;
  resourceName: string;
  note: string;
  resourceType: ResourceType;
  resourceStage: Stage;
  signed: boolean;
  /** changes: the admin table's State column sorts by it (decision 260) */
  status: PackageStatus;
  createdAt: string;
  /** moved by every write of the package: the index's top-up reads the entries changed since */
  updatedAt: string;
  deliveryStartedAt?: string;
}

export interface PackageRepository {
  /** stores a new package, claims its name and counts the reference on its resource */
  create(pkg: PackageRecord, commit?: Recorded): Promise<'ok' | 'nameTaken' | 'resourceGone'>;
  get(id: string): Promise<PackageRecord | null>;
  /**
   * replaces a DRAFT whose step-1 fields (name, note, type) changed: moves its name claim from
   * `oldName` to `next.name` in the same transaction, if the version and status are still `expected`
   */
  renameDraft(
    next: PackageRecord,
    expected: { version: number; status: PackageStatus },
    oldName: string,
    commit?: Recorded,
  ): Promise<'ok' | 'nameTaken' | 'moved'>;
  getMany(ids: string[]): Promise<PackageRecord[]>;
  listByStage(stage: Stage): Promise<PackageRecord[]>;
  listDelivery(): Promise<PackageRecord[]>;
  listAll(): Promise<PackageRecord[]>;
  /** the lists above, a page at a time (an invalid cursor is a BadRequestError) */
  listByStagePage(stage: Stage, page: PageRequest): Promise<Page<PackageRecord>>;
  listDeliveryPage(page: PageRequest): Promise<Page<PackageRecord>>;
  listAllPage(page: PageRequest): Promise<Page<PackageRecord>>;
  /** the list's compact entries, newest first (by delivery start for the delivery list; decision 210) */
  compactList(list: PackageListName): Promise<CompactPackage[]>;
  /** drops compact entries whose package turned out to be gone (a page read found them missing) */
  forgetCompact(ids: readonly string[]): void;
  /** the user's DRAFT packages of a stage, newest first (the home page; read by an index, not a list) */
  draftsOf(userId: string, stage: Stage): Promise<PackageRecord[]>;
  /**
   * the newest approved package (shared/domain/package-changes.ts) under `approvedFor` (resource type and
   * device id), approved before `before` when given, other than `exceptId`; null when none (decision 246)
   */
  lastApproved(
    approvedFor: string,
    opts: { before?: string; exceptId: string },
  ): Promise<PackageRecord | null>;
  listByResource(resourceId: string): Promise<PackageRecord[]>;
  listByDcc(dccId: string): Promise<PackageRecord[]>;
  /** ids of packages with an open task of this kind for the user, at a stage (undefined: any) */
  taskPackageIds(userId: string, kind: TaskKind, stage?: Stage): Promise<string[]>;
  /**
   * replaces the package if its version is still `expected.version` and its status `expected.status`,
   * with what `commit` carries, all in one transaction; false when the package moved (nothing written)
   */
  save(
    next: PackageRecord,
    expected: { version: number; status: PackageStatus },
    commit?: PackageCommit,
  ): Promise<boolean>;
  /**
   * records one approver's vote, counted once and only while the package waits in the round (the approval
   * policy's condition, shared/domain/approval-policy.ts, holds in storage), together with what `plan`
   * makes of it (the vote's event and task; on the last vote the transition, its event, tasks and mails):
   * one transaction
   */
  vote(id: string, userId: string, round: RoundName, at: string, plan: PlanDecision): Promise<VoteResult>;
  /** records one approver's rejection (the round's rejected status), with what `plan` makes of it: one transaction */
  reject(
    id: string,
    userId: string,
    round: RoundName,
    note: string,
    at: string,
    plan: PlanDecision,
  ): Promise<VoteResult>;
  /**
   * records the generation's progress (payload bytes done) while the package is GENERATING by job
   * `jobId` and run `runId`; neither version nor status change, so the worker's final conditional save
   * still holds. false: the package left that generation (deleted, another job, another run).
   */
  generationProgress(id: string, jobId: string, bytesDone: number, runId?: string): Promise<boolean>;
  /**
   * The first write of a generation run (decision 284): claims job `jobId` for run `runId` while the
   * package is GENERATING by that job, unless another run claimed it first. A run's own retries (the
   * same event, the same run id) claim it again. false: another run holds it, or the job is over.
   */
  claimGeneration(id: string, jobId: string, runId: string): Promise<boolean>;
  /**
   * deletes the package, its tasks and its name claim; with `deletion`, in the same transaction writes its
   * tombstone and the outbox mails to the people waiting on it. `onlyIn`: deletes only while the
   * package's stored status is one of these ('moved' when it is not: a plain deletion racing a transition
   * that put the package in flight). 'gone': someone else deleted it meanwhile.
   */
  delete(pkg: PackageRecord, deletion?: PackageDeletion): Promise<'deleted' | 'gone' | 'moved'>;
  /** what is kept of a package an admin deleted (null: never deleted, or deleted before tombstones) */
  tombstone(id: string): Promise<PackageTombstone | null>;
}

/** What an admin's deletion writes with it (decisions 195–199), its audit event included (283). */
export interface PackageDeletion extends Recorded {
  tombstone?: PackageTombstone;
  mails?: OutboxMail[];
  onlyIn?: readonly PackageStatus[];
}
