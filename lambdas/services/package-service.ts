import { randomUUID } from 'node:crypto';
import type { CreateDcc, Dcc } from '../../shared/api/contracts/dcc';
import type {
  ApproveOutcome,
  ApproverEntry,
  GeneratePackage,
  NotifyRequest,
  Package,
  PackageStatus,
  UserRef,
} from '../../shared/api/contracts/packages';
import type { Stage } from '../../shared/api/contracts/resources';
import { type ChainedEvent, verifyChain } from '../../shared/domain/audit-chain';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../shared/domain/errors';
import { holdsAuthority } from '../../shared/domain/identity';
import {
  approverList,
  checkApproverSelection,
  DELIVERABLE,
  isSignedType,
  MIN_SIGNED_RELEASE_ROLES,
  stageOfType,
} from '../../shared/domain/package-rules';
import { NON_ADMIN_ROLES, type Role, roleLabel } from '../../shared/domain/roles';
import { headerSafe } from '../../shared/domain/text-rules';
import { MSG } from '../../shared/messages';
import { logger } from '../middleware/logging';
import type { ArtefactService } from '../ports/artefact-service';
import type { AuditLog, StoredAuditEvent } from '../ports/audit-log';
import type { Clock } from '../ports/clock';
import type { DccRepository } from '../ports/dcc-repository';
import type {
  ArtefactRef,
  OutboxMail,
  PackageRecord,
  PackageRepository,
  Page,
  PageRequest,
  Task,
  VoteResult,
} from '../ports/package-repository';
import type { ResourceRepository } from '../ports/resource-repository';
import type { UserRecord, UserRepository } from '../ports/user-repository';

/** Header rules the service needs (the template, validation and computed fields live in shared/domain/header). */
export interface HeaderRules {
  initial(pkg: Pick<PackageRecord, 'type'>, resource: { sizeBytes: number }): unknown;
  update(
    current: unknown,
    submitted: unknown,
    pkg: Pick<PackageRecord, 'type'>,
    resource: { sizeBytes: number },
  ): unknown;
}

export interface PackageServiceDeps {
  packages: PackageRepository;
  resources: ResourceRepository;
  dccs: DccRepository;
  users: UserRepository;
  audit: AuditLog;
  artefacts: () => ArtefactService;
  header: HeaderRules;
  clock: Clock;
  appUrl: string;
}

export const userRef = (u: Pick<UserRecord, 'id' | 'name' | 'email' | 'userRole'>): UserRef => ({
  id: u.id,
  name: u.name,
  email: u.email,
  userRole: u.userRole,
});

/** A package as the API returns it (spec §3 fields; approvers as ordered lists). */
export function toPackage(p: PackageRecord): Package {
  return {
    id: p.id,
    name: p.name,
    type: p.type,
    status: p.status,
    resourceId: p.resourceId,
    resourceName: p.resourceName,
    resourceType: p.resourceType,
    resourceStage: p.resourceStage,
    initiator: p.initiator,
    uploadTime: p.uploadTime,
    note: p.note,
    signed: p.signed,
    dccId: p.dccId,
    approvers: approverList(p.approvers),
    signer: p.signer,
    linkToS3: p.linkToS3,
    mLifePath: p.mLifePath,
    deliveryApprovers: approverList(p.deliveryApprovers),
    rejectionNote: p.rejectionNote,
    ...(p.mailFailures?.length ? { mailFailures: p.mailFailures } : {}),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

/** A page of a package list as the API returns it. */
export interface PackagePage {
  packages: Package[];
  nextCursor?: string;
}

const toPackagePage = (p: Page<PackageRecord>): PackagePage => ({
  packages: p.items.map(toPackage),
  ...(p.next ? { nextCursor: p.next } : {}),
});

const MEANING = {
  approve: 'approves the package: its content, header and DCC are fit for the next step',
  sign: 'signs the package as the release engineer: it is the package approved for devices',
  deliver: 'starts delivery of the approved release package to devices',
  deliveryApprove: 'approves delivery of the package to devices',
} as const;

export class PackageService {
  constructor(private readonly d: PackageServiceDeps) {}

  private now() {
    return this.d.clock.now();
  }

  /** Commits a transition; a lost race (version or status moved) is a 409 the user can act on. */
  private async saveOrConflict(
    next: PackageRecord,
    expected: { version: number; status: PackageStatus },
    tasks?: { add?: Task[]; removeAll?: boolean; mails?: OutboxMail[] },
  ): Promise<void> {
    if (!(await this.d.packages.save(next, expected, tasks))) {
      throw new ConflictError('The package changed meanwhile; reload it and try again');
    }
  }

  private async mustGet(id: string): Promise<PackageRecord> {
    const p = await this.d.packages.get(id);
    if (!p) throw new NotFoundError('Package not found');
    return p;
  }

  private async audit(
    p: PackageRecord,
    actor: UserRecord,
    action: string,
    meaning: string,
    details?: Record<string, unknown>,
  ) {
    await this.d.audit.append({
      subject: `PKG#${p.id}`,
      action,
      meaning,
      actorId: actor.id,
      actorName: actor.name,
      actorRole: actor.userRole,
      details: { packageName: p.name, status: p.status, ...details },
    });
  }

  /**
   * A workflow mail for the outbox, committed with the state change that causes it (decision 095). The
   * id names the package, the version the change produces (`basis`), the event and the recipient: the
   * same event never mails one person twice, and every new event mails afresh.
   */
  private mail(
    p: Pick<PackageRecord, 'id'>,
    basis: number,
    event: string,
    to: Pick<UserRef, 'id' | 'email'>,
    subject: string,
    text: string,
  ): OutboxMail {
    return {
      id: `${p.id}#${basis}#${event}#${to.id}`,
      packageId: p.id,
      event,
      toUserId: to.id,
      to: to.email,
      subject: headerSafe(subject),
      text,
      createdAt: this.now().toISOString(),
    };
  }

  // ── creation ─────────────────────────────────────────────────────────────────────────────────

  async generate(user: UserRecord, resourceId: string, req: GeneratePackage): Promise<Package> {
    const resource = await this.d.resources.getById(resourceId);
    if (!resource) throw new NotFoundError('Resource not found');
    if (stageOfType(req.packageType) !== resource.resourceStage) {
      throw new BadRequestError(
        `A ${resource.resourceStage.toLowerCase()} resource makes ${resource.resourceStage}_SIGNED or ${resource.resourceStage}_UNSIGNED packages`,
      );
    }
    const now = this.now().toISOString();
    const base = {
      id: randomUUID(),
      name: req.packageName,
      type: req.packageType,
      status: 'DRAFT' as const,
      resourceId: resource.id,
      resourceName: resource.name,
      resourceType: resource.resourceType,
      resourceStage: resource.resourceStage,
      initiator: userRef(user),
      uploadTime: resource.uploadTime,
      note: req.note,
      signed: isSignedType(req.packageType),
      approvers: {},
      approverCount: 0,
      approvedCount: 0,
      deliveryApprovers: {},
      deliveryApproverCount: 0,
      deliveryApprovedCount: 0,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const pkg: PackageRecord = { ...base, header: this.d.header.initial(base, resource) };
    const created = await this.d.packages.create(pkg);
    if (created === 'nameTaken') throw new ConflictError(`Package with name '${pkg.name}' already exists`);
    if (created === 'resourceGone') throw new NotFoundError('Resource not found');
    await this.audit(pkg, user, 'PACKAGE_CREATED', `creates a ${pkg.type} package from ${resource.name}`, {
      resourceSha256: resource.sha256,
    });
    return toPackage(pkg);
  }

  // ── lists ────────────────────────────────────────────────────────────────────────────────────

  async listStage(stage: Stage): Promise<Package[]> {
    return (await this.d.packages.listByStage(stage)).map(toPackage);
  }

  async listDelivery(): Promise<Package[]> {
    return (await this.d.packages.listDelivery()).map(toPackage);
  }

  async listAll(): Promise<Package[]> {
    return (await this.d.packages.listAll()).map(toPackage);
  }

  /** The lists above a page at a time (docs/decisions/050-package-list-paging.md). */
  async listStagePage(stage: Stage, page: PageRequest): Promise<PackagePage> {
    return toPackagePage(await this.d.packages.listByStagePage(stage, page));
  }

  async listDeliveryPage(page: PageRequest): Promise<PackagePage> {
    return toPackagePage(await this.d.packages.listDeliveryPage(page));
  }

  async listAllPage(page: PageRequest): Promise<PackagePage> {
    return toPackagePage(await this.d.packages.listAllPage(page));
  }

  /** What waits for the caller's approval: dev, release or deliver (spec §7). */
  async listApproval(user: UserRecord, list: 'DEV' | 'RELEASE' | 'DELIVER'): Promise<Package[]> {
    const ids =
      list === 'DELIVER'
        ? await this.d.packages.taskPackageIds(user.id, 'DELIVERY')
        : await this.d.packages.taskPackageIds(user.id, 'APPROVE', list);
    const waiting: PackageStatus = list === 'DELIVER' ? 'DELIVERY_PENDING' : 'PENDING_APPROVAL';
    const map = list === 'DELIVER' ? 'deliveryApprovers' : 'approvers';
    // tasks are removed after each decision; the filter also hides any task a failed removal left behind
    return (await this.d.packages.getMany(ids))
      .filter(
        (p) =>
          p.status === waiting &&
          p[map][user.id] &&
          !p[map][user.id]!.rejected &&
          // approved already: listed again only while a failed completion waits for the approver's retry
          (!p[map][user.id]!.approved || (list !== 'DELIVER' && p.approvedCount >= p.approverCount)),
      )
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .map(toPackage);
  }

  /** What waits for the caller's signature: dev or release. */
  async listSigning(user: UserRecord, stage: Stage): Promise<Package[]> {
    const ids = await this.d.packages.taskPackageIds(user.id, 'SIGN', stage);
    return (await this.d.packages.getMany(ids))
      .filter((p) => p.status === 'AWAITING_SIGNATURE' && p.signer?.id === user.id)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .map(toPackage);
  }

  // ── header and DCC (initiator, DRAFT) ────────────────────────────────────────────────────────

  private assertDraftOwner(p: PackageRecord, user: UserRecord, what: string) {
    if (p.initiator.id !== user.id) throw new ForbiddenError(`Only the package's initiator can ${what}`);
    if (p.status !== 'DRAFT')
      throw new ConflictError(
        `The package was already sent for approval; its ${what.replace(/^edit /, '')} can no longer change`,
      );
  }

  async getHeader(id: string): Promise<unknown> {
    return (await this.mustGet(id)).header;
  }

  async updateHeader(user: UserRecord, id: string, submitted: unknown): Promise<unknown> {
    const p = await this.mustGet(id);
    this.assertDraftOwner(p, user, 'edit the header');
    const resource = await this.d.resources.getById(p.resourceId);
    if (!resource) throw new ConflictError('The resource of this package was deleted');
    const header = this.d.header.update(p.header, submitted, p, resource);
    const next = { ...p, header, updatedAt: this.now().toISOString(), version: p.version + 1 };
    await this.saveOrConflict(next, { version: p.version, status: 'DRAFT' });
    await this.audit(next, user, 'HEADER_EDITED', 'edits the package header');
    return header;
  }

  async attachDcc(user: UserRecord, id: string, dccId: string): Promise<Package> {
    const p = await this.mustGet(id);
    this.assertDraftOwner(p, user, 'attach a DCC');
    const dcc = await this.d.dccs.get(dccId);
    if (!dcc) throw new NotFoundError('DCC not found');
    const next = { ...p, dccId, updatedAt: this.now().toISOString(), version: p.version + 1 };
    await this.saveOrConflict(next, { version: p.version, status: 'DRAFT' });
    await this.audit(next, user, 'DCC_ATTACHED', `attaches DCC ${dcc.deviceId} (${dcc.telemetryType})`, {
      dccId,
    });
    return toPackage(next);
  }

  async createDcc(user: UserRecord, req: CreateDcc): Promise<Dcc> {
    const dcc: Dcc = {
      ...req,
      id: randomUUID(),
      createdAt: this.now().toISOString(),
      createdBy: { id: user.id, name: user.name },
    };
    await this.d.dccs.create(dcc);
    await this.d.audit.append({
      subject: `DCC#${dcc.id}`,
      action: 'DCC_CREATED',
      meaning: `creates DCC ${dcc.deviceId}`,
      actorId: user.id,
      actorName: user.name,
      actorRole: user.userRole,
      details: { ...req },
    });
    return dcc;
  }

  listDcc(): Promise<Dcc[]> {
    return this.d.dccs.list();
  }

  // ── approvers and notify ─────────────────────────────────────────────────────────────────────

  /** Holders of a role who may act in it: confirmed and granted by an admin (issue 12). */
  private async candidates(): Promise<UserRecord[]> {
    const lists = await Promise.all(NON_ADMIN_ROLES.map((r) => this.d.users.listByRole(r)));
    return lists.flat().filter(holdsAuthority);
  }

  /** A chosen approver or signer whose role is not granted is refused by name, saying why. */
  private async refuseUngranted(ids: readonly (string | undefined)[], candidates: UserRecord[]) {
    for (const id of ids) {
      if (!id || candidates.some((c) => c.id === id)) continue;
      const u = await this.d.users.getById(id);
      if (u && u.userRole !== 'ADMIN' && !holdsAuthority(u))
        throw new BadRequestError(
          `${u.name} cannot be chosen: their role ${roleLabel(u.userRole)} waits for an administrator's approval`,
        );
    }
  }

  /** Candidates per role (initiator excluded) and, when asked, the signers (spec §7). */
  async approvers(user: UserRecord, id: string, withSigners: boolean) {
    const p = await this.mustGet(id);
    const excluded = p.status === 'DRAFT' ? [p.initiator.id] : [p.initiator.id, user.id];
    const all = (await this.candidates()).filter((u) => !excluded.includes(u.id));
    const byRole: Partial<Record<Role, UserRef[]>> = {};
    for (const role of NON_ADMIN_ROLES) {
      const holders = all.filter((u) => u.userRole === role).map(userRef);
      if (holders.length) byRole[role] = holders;
    }
    const signers = withSigners
      ? all.filter((u) => u.userRole === 'SW_FW_RELEASE_ENGINEER').map(userRef)
      : undefined;
    return { approvers: byRole, signers };
  }

  async notify(user: UserRecord, id: string, req: NotifyRequest): Promise<Package> {
    const p = await this.mustGet(id);
    this.assertDraftOwner(p, user, 'notify approvers');
    if (!p.dccId) throw new ConflictError('Attach a DCC to the package before notifying approvers');
    const candidates = await this.candidates();
    await this.refuseUngranted([...req.approvers.map((a) => a.id), req.signer], candidates);
    const problem = checkApproverSelection(req.approvers, candidates, {
      excluded: [p.initiator.id],
      requireMinRoles: p.type === 'RELEASE_SIGNED' ? MIN_SIGNED_RELEASE_ROLES : undefined,
    });
    if (problem) throw new BadRequestError(problem);

    let signer: UserRecord | undefined;
    if (p.signed) {
      const signers = candidates.filter(
        (c) => c.userRole === 'SW_FW_RELEASE_ENGINEER' && c.id !== p.initiator.id,
      );
      if (signers.length === 0) throw new BadRequestError(MSG.noSigners);
      if (!req.signer) throw new BadRequestError('Choose a signer for a signed package');
      signer = signers.find((s) => s.id === req.signer);
      if (!signer) throw new BadRequestError('The chosen signer is not a SW/FW Release Engineer');
    } else if (req.signer) {
      throw new BadRequestError('Only signed packages have a signer');
    }

    const now = this.now().toISOString();
    const chosen = req.approvers.map((s) => candidates.find((c) => c.id === s.id)!);
    const approvers: Record<string, ApproverEntry> = {};
    for (const u of chosen)
      approvers[u.id] = { user: userRef(u), role: u.userRole, approved: false, rejected: false };
    const next: PackageRecord = {
      ...p,
      status: 'PENDING_APPROVAL',
      approvers,
      approverCount: chosen.length,
      approvedCount: 0,
      signer: signer ? userRef(signer) : undefined,
      updatedAt: now,
      version: p.version + 1,
    };
    const tasks: Task[] = chosen.map((u) => ({
      kind: 'APPROVE',
      userId: u.id,
      packageId: p.id,
      stage: p.resourceStage,
      createdAt: now,
    }));

    // The mails commit with the state change (decision 095): a mail outage never blocks the workflow.
    const mails = chosen.map((u) =>
      this.mail(
        next,
        next.version,
        'APPROVAL_REQUESTED',
        u,
        `Approval requested: package ${p.name}`,
        this.requestMail(u, p, user, 'approve', `${this.d.appUrl}/packages/approve`),
      ),
    );
    await this.saveOrConflict(next, { version: p.version, status: 'DRAFT' }, { add: tasks, mails });
    await this.audit(next, user, 'APPROVAL_REQUESTED', 'sends the package for approval', {
      approvers: chosen.map((u) => ({ id: u.id, name: u.name, role: u.userRole })),
      signer: signer ? { id: signer.id, name: signer.name } : undefined,
    });
    return toPackage(next);
  }

  private requestMail(
    to: UserRecord,
    p: PackageRecord,
    from: UserRecord,
    verb: string,
    link: string,
  ): string {
    return [
      `Hello ${to.name},`,
      '',
      `${from.name} asks you to ${verb} the package "${p.name}" (${p.type}, resource ${p.resourceName}).`,
      '',
      `Initiator's note: ${p.note}`,
      '',
      `Open it here: ${link}`,
    ].join('\n');
  }

  // ── approval ─────────────────────────────────────────────────────────────────────────────────

  private explain(r: Exclude<VoteResult, { ok: true }>, what: string): never {
    switch (r.reason) {
      case 'notFound':
        throw new NotFoundError('Package not found');
      case 'notAssigned':
        throw new ForbiddenError(`You are not an approver of this ${what}`);
      case 'alreadyDecided':
        throw new ConflictError('You have already decided on this package');
      default:
        throw new ConflictError(`The package is not waiting for ${what} approval`);
    }
  }

  /**
   * A person is chosen for the role they held then; whoever changed role since gave that grant up, so the
   * assignment no longer lets them decide (even once an admin granted their new role).
   */
  private assertStillInRole(entry: ApproverEntry | undefined, user: UserRecord) {
    if (entry && entry.role !== user.userRole)
      throw new ForbiddenError(
        `You were chosen as ${roleLabel(entry.role)} for this package, but you no longer hold that role (you are now ${roleLabel(user.userRole)}), so you cannot decide on it`,
      );
  }

  async approve(user: UserRecord, id: string): Promise<{ outcome: ApproveOutcome; pkg: Package }> {
    const before = await this.mustGet(id);
    const entry = before.approvers[user.id];
    this.assertStillInRole(entry, user);
    // a fully approved package whose next step failed earlier: the approver's retry finishes it
    if (
      entry?.approved &&
      before.status === 'PENDING_APPROVAL' &&
      before.approvedCount >= before.approverCount
    ) {
      return this.completeApproval(user, before);
    }
    const at = this.now().toISOString();
    const r = await this.d.packages.vote(id, user.id, 'approval', at);
    if (!r.ok) this.explain(r, 'package');
    // the last vote's task goes with the completion (removeAll), so a failed completion stays in its list
    if (r.pkg.approvedCount < r.pkg.approverCount)
      await this.d.packages.removeTask({ kind: 'APPROVE', userId: user.id, packageId: id });
    await this.audit(r.pkg, user, 'APPROVED', MEANING.approve, {
      approved: `${r.pkg.approvedCount}/${r.pkg.approverCount}`,
    });
    if (r.pkg.approvedCount < r.pkg.approverCount)
      return { outcome: 'WAITING_FOR_APPROVALS', pkg: toPackage(r.pkg) };
    return this.completeApproval(user, r.pkg);
  }

  /** Exactly one caller sees the last vote; it moves the package on (conditional on the state, so once). */
  private async completeApproval(
    user: UserRecord,
    p: PackageRecord,
  ): Promise<{ outcome: ApproveOutcome; pkg: Package }> {
    const now = this.now();
    if (p.signed) {
      const signer = p.signer!;
      const next: PackageRecord = {
        ...p,
        status: 'AWAITING_SIGNATURE',
        updatedAt: now.toISOString(),
        version: p.version + 1,
      };
      const task: Task = {
        kind: 'SIGN',
        userId: signer.id,
        packageId: p.id,
        stage: p.resourceStage,
        createdAt: now.toISOString(),
      };
      const signerMail = this.mail(
        next,
        next.version,
        'SIGNATURE_REQUESTED',
        signer,
        `Signature requested: package ${p.name}`,
        [
          `Hello ${signer.name},`,
          '',
          `The package "${p.name}" is fully approved and waits for your signature.`,
          '',
          `Initiator's note: ${p.note}`,
          '',
          `Open it here: ${this.d.appUrl}/packages/sign`,
        ].join('\n'),
      );
      if (
        !(await this.d.packages.save(
          next,
          { version: p.version, status: 'PENDING_APPROVAL' },
          { add: [task], removeAll: true, mails: [signerMail] },
        ))
      ) {
        return this.settledOutcome(p.id);
      }
      await this.audit(
        next,
        user,
        'FULLY_APPROVED',
        'every approver approved; the package waits for its signer',
      );
      return { outcome: 'WAITING_FOR_SIGNING', pkg: toPackage(next) };
    }
    const artefact = await this.buildArtefact(p, undefined, now);
    const next: PackageRecord = {
      ...p,
      status: 'APPROVED',
      artefact,
      linkToS3: artefact.key,
      updatedAt: now.toISOString(),
      version: p.version + 1,
    };
    const approvedMail = this.mail(
      next,
      next.version,
      'PACKAGE_GENERATED',
      p.initiator,
      `Package approved: ${p.name}`,
      [
        `Hello ${p.initiator.name},`,
        '',
        `Every approver approved "${p.name}". The package is generated.`,
        '',
        `Open it here: ${this.d.appUrl}/packages`,
      ].join('\n'),
    );
    if (
      !(await this.d.packages.save(
        next,
        { version: p.version, status: 'PENDING_APPROVAL' },
        { removeAll: true, mails: [approvedMail] },
      ))
    ) {
      await this.d.artefacts().remove(artefact);
      return this.settledOutcome(p.id);
    }
    await this.audit(
      next,
      user,
      'PACKAGE_GENERATED',
      'every approver approved; the XML package is generated',
      {
        artefactKey: artefact.key,
        sha256: artefact.sha256,
      },
    );
    return { outcome: 'GENERATED', pkg: toPackage(next) };
  }

  private async settledOutcome(id: string): Promise<{ outcome: ApproveOutcome; pkg: Package }> {
    const now = await this.mustGet(id);
    if (now.status === 'AWAITING_SIGNATURE') return { outcome: 'WAITING_FOR_SIGNING', pkg: toPackage(now) };
    if (now.status === 'APPROVED') return { outcome: 'GENERATED', pkg: toPackage(now) };
    throw new ConflictError('The package changed meanwhile; reload it');
  }

  private async buildArtefact(p: PackageRecord, signedBy: UserRecord | undefined, at: Date) {
    const resource = await this.d.resources.getById(p.resourceId);
    if (!resource)
      throw new ConflictError('The resource of this package was deleted; the package cannot be generated');
    const dcc = p.dccId ? await this.d.dccs.get(p.dccId) : null;
    if (!dcc) throw new ConflictError('The DCC of this package was deleted; the package cannot be generated');
    const approvals = approverList(p.approvers)
      .filter((a) => a.approved)
      .map((a) => ({
        id: a.user.id,
        name: a.user.name,
        email: a.user.email,
        role: a.role,
        decidedAt: a.decidedAt ?? '',
      }));
    return this.d.artefacts().generate({
      pkg: p,
      resource,
      dcc,
      approvals,
      signedBy: signedBy
        ? { id: signedBy.id, name: signedBy.name, email: signedBy.email, role: signedBy.userRole }
        : undefined,
      at,
    });
  }

  async reject(user: UserRecord, id: string, note: string): Promise<Package> {
    const at = this.now().toISOString();
    const before = await this.d.packages.get(id);
    this.assertStillInRole(before?.approvers[user.id], user);
    const mails = before ? [this.rejectionMail(before, before.version, 'REJECTED', user, note)] : [];
    const r = await this.d.packages.reject(id, user.id, 'approval', note, at, 'REJECTED', mails);
    if (!r.ok) this.explain(r, 'package');
    await this.clearTasks(r.pkg);
    await this.audit(r.pkg, user, 'REJECTED', 'rejects the package; it will not be generated', {
      rejectionNote: note,
    });
    return toPackage(r.pkg);
  }

  private async clearTasks(p: PackageRecord) {
    await this.d.packages.save(
      { ...p, version: p.version + 1 },
      { version: p.version, status: p.status },
      { removeAll: true },
    );
  }

  /** The initiator's mail about a rejection; `basis` is the version the rejection started from. */
  private rejectionMail(p: PackageRecord, basis: number, event: string, by: UserRecord, note: string) {
    return this.mail(
      p,
      basis,
      `${event}#${by.id}`,
      p.initiator,
      `Package rejected: ${p.name}`,
      [
        `Hello ${p.initiator.name},`,
        '',
        `${by.name} (${by.userRole}) rejected "${p.name}".`,
        '',
        `Reason: ${note}`,
        '',
        `Open it here: ${this.d.appUrl}/packages`,
      ].join('\n'),
    );
  }

  // ── signing ──────────────────────────────────────────────────────────────────────────────────

  private assertSigner(p: PackageRecord, user: UserRecord) {
    if (p.signer?.id !== user.id) throw new ForbiddenError('You are not the signer of this package');
    if (p.status !== 'AWAITING_SIGNATURE')
      throw new ConflictError('The package is not waiting for a signature');
  }

  async sign(user: UserRecord, id: string): Promise<Package> {
    const p = await this.mustGet(id);
    this.assertSigner(p, user);
    const now = this.now();
    const artefact = await this.buildArtefact(p, user, now);
    const next: PackageRecord = {
      ...p,
      status: 'SIGNED',
      artefact,
      linkToS3: artefact.key,
      mLifePath: artefact.key,
      updatedAt: now.toISOString(),
      version: p.version + 1,
    };
    const signedMail = this.mail(
      next,
      next.version,
      'SIGNED',
      p.initiator,
      `Package signed: ${p.name}`,
      [
        `Hello ${p.initiator.name},`,
        '',
        `${user.name} signed "${p.name}". The signed package is ready.`,
        '',
        `Open it here: ${this.d.appUrl}/packages`,
      ].join('\n'),
    );
    if (
      !(await this.d.packages.save(
        next,
        { version: p.version, status: 'AWAITING_SIGNATURE' },
        { removeAll: true, mails: [signedMail] },
      ))
    ) {
      throw await this.lostSigningRace(id, artefact);
    }
    await this.audit(next, user, 'SIGNED', MEANING.sign, {
      artefactKey: artefact.key,
      sha256: artefact.sha256,
    });
    return toPackage(next);
  }

  /**
   * A sign that lost its race (another sign or a reject-signing committed first): its own artefact goes,
   * so a SIGNED package keeps exactly the winner's file and a REJECTED one none; the caller gets a 409
   * saying what happened. The winner's file is never touched, even if the keys were ever to coincide.
   */
  private async lostSigningRace(id: string, own?: ArtefactRef): Promise<ConflictError> {
    const current = await this.d.packages.get(id);
    if (own && current?.artefact?.key !== own.key) {
      await this.d
        .artefacts()
        .remove(own)
        .catch((e: unknown) =>
          logger().error('artefact left behind', {
            kind: 'orphanArtefact',
            key: own.key,
            reason: (e as Error).message,
          }),
        );
    }
    if (current?.status === 'SIGNED')
      return new ConflictError('The package was signed meanwhile; reload it to see the signed package');
    if (current?.status === 'REJECTED')
      return new ConflictError(
        'Signing of this package was rejected meanwhile; it cannot be signed or rejected again',
      );
    return new ConflictError('The package changed meanwhile; reload it');
  }

  async rejectSigning(user: UserRecord, id: string, note: string): Promise<Package> {
    const p = await this.mustGet(id);
    this.assertSigner(p, user);
    const next: PackageRecord = {
      ...p,
      status: 'REJECTED',
      rejectionNote: note,
      updatedAt: this.now().toISOString(),
      version: p.version + 1,
    };
    if (
      !(await this.d.packages.save(
        next,
        { version: p.version, status: 'AWAITING_SIGNATURE' },
        { removeAll: true, mails: [this.rejectionMail(next, next.version, 'SIGNING_REJECTED', user, note)] },
      ))
    )
      throw await this.lostSigningRace(id);
    await this.audit(next, user, 'SIGNING_REJECTED', 'refuses to sign the package', { rejectionNote: note });
    return toPackage(next);
  }

  // ── delivery ─────────────────────────────────────────────────────────────────────────────────

  async deliver(user: UserRecord, id: string, req: NotifyRequest): Promise<Package> {
    const p = await this.mustGet(id);
    if (p.resourceStage !== 'RELEASE') throw new ConflictError('Only release packages are delivered');
    if (!DELIVERABLE.includes(p.status))
      throw new ConflictError('The package must be approved (and signed, if signed) before delivery');
    if (req.signer) throw new BadRequestError('A delivery has no signer');
    const candidates = await this.candidates();
    await this.refuseUngranted(
      req.approvers.map((a) => a.id),
      candidates,
    );
    const excluded = [p.initiator.id, user.id];
    const problem = checkApproverSelection(req.approvers, candidates, { excluded });
    if (problem) throw new BadRequestError(problem);
    const now = this.now().toISOString();
    const chosen = req.approvers.map((s) => candidates.find((c) => c.id === s.id)!);
    const deliveryApprovers: Record<string, ApproverEntry> = {};
    for (const u of chosen)
      deliveryApprovers[u.id] = { user: userRef(u), role: u.userRole, approved: false, rejected: false };
    const next: PackageRecord = {
      ...p,
      status: 'DELIVERY_PENDING',
      deliveryApprovers,
      deliveryApproverCount: chosen.length,
      deliveryApprovedCount: 0,
      deliverer: userRef(user),
      rejectionNote: undefined,
      deliveryStartedAt: p.deliveryStartedAt ?? now,
      updatedAt: now,
      version: p.version + 1,
    };
    const tasks: Task[] = chosen.map((u) => ({
      kind: 'DELIVERY',
      userId: u.id,
      packageId: p.id,
      stage: 'RELEASE',
      createdAt: now,
    }));
    const mails = chosen.map((u) =>
      this.mail(
        next,
        next.version,
        'DELIVERY_REQUESTED',
        u,
        `Delivery approval requested: package ${p.name}`,
        this.requestMail(u, p, user, 'approve the delivery of', `${this.d.appUrl}/packages/approve`),
      ),
    );
    await this.saveOrConflict(
      next,
      { version: p.version, status: p.status },
      { add: tasks, removeAll: true, mails },
    );
    await this.audit(
      next,
      user,
      p.status === 'DELIVERY_REJECTED' ? 'REDELIVERED' : 'DELIVERY_STARTED',
      MEANING.deliver,
      {
        approvers: chosen.map((u) => ({ id: u.id, name: u.name, role: u.userRole })),
      },
    );
    return toPackage(next);
  }

  async approveDelivery(user: UserRecord, id: string): Promise<{ outcome: ApproveOutcome; pkg: Package }> {
    const before = await this.mustGet(id);
    const entry = before.deliveryApprovers[user.id];
    this.assertStillInRole(entry, user);
    if (
      entry?.approved &&
      before.status === 'DELIVERY_PENDING' &&
      before.deliveryApprovedCount >= before.deliveryApproverCount
    ) {
      return this.completeDelivery(user, before);
    }
    const r = await this.d.packages.vote(id, user.id, 'delivery', this.now().toISOString());
    if (!r.ok) this.explain(r, 'delivery');
    await this.d.packages.removeTask({ kind: 'DELIVERY', userId: user.id, packageId: id });
    await this.audit(r.pkg, user, 'DELIVERY_APPROVED', MEANING.deliveryApprove, {
      approved: `${r.pkg.deliveryApprovedCount}/${r.pkg.deliveryApproverCount}`,
    });
    if (r.pkg.deliveryApprovedCount < r.pkg.deliveryApproverCount)
      return { outcome: 'WAITING_FOR_APPROVALS', pkg: toPackage(r.pkg) };
    return this.completeDelivery(user, r.pkg);
  }

  private async completeDelivery(
    user: UserRecord,
    p: PackageRecord,
  ): Promise<{ outcome: ApproveOutcome; pkg: Package }> {
    const now = this.now().toISOString();
    const next: PackageRecord = {
      ...p,
      status: 'DELIVERED',
      mLifePath: p.artefact?.key ?? p.mLifePath,
      updatedAt: now,
      version: p.version + 1,
    };
    const mails = [p.initiator, p.deliverer]
      .filter((u): u is UserRef => !!u)
      .map((u) =>
        this.mail(
          next,
          next.version,
          'DELIVERED',
          u,
          `Package delivered: ${p.name}`,
          [`Hello ${u.name},`, '', `"${p.name}" is delivered.`].join('\n'),
        ),
      );
    if (
      !(await this.d.packages.save(
        next,
        { version: p.version, status: 'DELIVERY_PENDING' },
        { removeAll: true, mails },
      ))
    ) {
      const again = await this.mustGet(p.id);
      if (again.status === 'DELIVERED') return { outcome: 'DELIVERED', pkg: toPackage(again) };
      throw new ConflictError('The package changed meanwhile; reload it');
    }
    await this.audit(next, user, 'DELIVERED', 'every delivery approver approved; the package is delivered');
    return { outcome: 'DELIVERED', pkg: toPackage(next) };
  }

  async rejectDelivery(user: UserRecord, id: string, note: string): Promise<Package> {
    const before = await this.d.packages.get(id);
    this.assertStillInRole(before?.deliveryApprovers[user.id], user);
    const mails = before ? [this.rejectionMail(before, before.version, 'DELIVERY_REJECTED', user, note)] : [];
    if (before?.deliverer && before.deliverer.id !== before.initiator.id) {
      mails.push(
        this.mail(
          before,
          before.version,
          `DELIVERY_REJECTED#${user.id}`,
          before.deliverer,
          `Delivery rejected: ${before.name}`,
          `${user.name} rejected the delivery of "${before.name}".\n\nReason: ${note}`,
        ),
      );
    }
    const r = await this.d.packages.reject(
      id,
      user.id,
      'delivery',
      note,
      this.now().toISOString(),
      'DELIVERY_REJECTED',
      mails,
    );
    if (!r.ok) this.explain(r, 'delivery');
    await this.clearTasks(r.pkg);
    await this.audit(
      r.pkg,
      user,
      'DELIVERY_REJECTED',
      'rejects the delivery; the release engineer may re-deliver',
      { rejectionNote: note },
    );
    return toPackage(r.pkg);
  }

  // ── artefacts, history, admin ────────────────────────────────────────────────────────────────

  async download(id: string) {
    const p = await this.mustGet(id);
    if (!p.artefact)
      throw new ConflictError(
        'The package has no generated file yet: it is generated when every approver has approved (and signed, if signed)',
      );
    const fileName = `${p.name.replace(/[^\w.-]+/g, '_')}.xml`;
    const d = await this.d.artefacts().download(p.artefact, fileName);
    return { fileName, sizeBytes: p.artefact.sizeBytes, sha256: p.artefact.sha256, ...d };
  }

  /** The package's audit events in order, and whether their hash chain is intact (nothing altered or removed). */
  async history(id: string): Promise<{ events: StoredAuditEvent[]; brokenAtSeq: number | null }> {
    await this.mustGet(id);
    const { events, head } = await this.d.audit.history(`PKG#${id}`);
    return { events, brokenAtSeq: verifyChain(events as ChainedEvent[], head) };
  }

  async deletePackages(admin: UserRecord, ids: string[]): Promise<void> {
    const found = await Promise.all([...new Set(ids)].map((id) => this.d.packages.get(id)));
    const missing = ids.filter((id) => !found.some((p) => p?.id === id));
    if (missing.length) throw new NotFoundError(`No package with id ${missing.join(', ')}`);
    for (const p of found as PackageRecord[]) {
      await this.d.packages.delete(p);
      if (p.artefact) await this.d.artefacts().remove(p.artefact);
      await this.audit(p, admin, 'PACKAGE_DELETED', 'deletes the package and its generated files');
    }
  }

  async deleteDccs(admin: UserRecord, ids: string[]): Promise<void> {
    const unique = [...new Set(ids)];
    const found = await Promise.all(unique.map((id) => this.d.dccs.get(id)));
    const missing = unique.filter((_, i) => !found[i]);
    if (missing.length) throw new NotFoundError(`No DCC with id ${missing.join(', ')}`);
    for (const id of unique) {
      const users = await this.d.packages.listByDcc(id);
      if (users.length) {
        throw new ConflictError(
          `DCC is attached to packages ${users.map((p) => p.name).join(', ')}: delete those packages first`,
        );
      }
    }
    await this.d.dccs.delete(unique);
    for (const dcc of found as Dcc[]) {
      await this.d.audit.append({
        subject: `DCC#${dcc.id}`,
        action: 'DCC_DELETED',
        meaning: `deletes DCC ${dcc.deviceId}`,
        actorId: admin.id,
        actorName: admin.name,
        actorRole: admin.userRole,
      });
    }
  }
}
