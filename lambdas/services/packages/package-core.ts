import type { PackageStatus, UserRef } from '../../../shared/api/contracts/packages';
import { ConflictError, NotFoundError } from '../../../shared/domain/errors';
import { deletedPackageMessage } from '../../../shared/domain/package-deletion';
import { nextStatus, type PackageAction, type VoteContext } from '../../../shared/domain/package-lifecycle';
import { approverList } from '../../../shared/domain/package-rules';
import { PACKAGE_ERR } from '../../../shared/domain/package-texts';
import { headerSafe } from '../../../shared/domain/text-rules';
import type { ArtefactDcc } from '../../ports/artefact-service';
import type { AuditEvent } from '../../ports/audit-log';
import type {
  ArtefactRef,
  OutboxMail,
  PackageCommit,
  PackageRecord,
  PackageRepository,
} from '../../ports/package-repository';
import type { UserRecord } from '../../ports/user-repository';
import { byActor } from './audit-texts';
import type { MailText } from './mail-texts';
import type { PackageServiceDeps, SignatureInput, SignatureMethod } from './package-deps';

/**
 * The 404 of a package id that names no package: for a package an admin deleted, its tombstone says who
 * deleted it, when and why (decision 197); otherwise 'Package not found'.
 */
export async function packageNotFound(
  packages: Pick<PackageRepository, 'tombstone'>,
  id: string,
): Promise<NotFoundError> {
  const t = await packages.tombstone(id);
  return new NotFoundError(t ? deletedPackageMessage(t) : PACKAGE_ERR.packageNotFound);
}

/**
 * What every package use case shares: reading, conditional saving, and the audit events and mails that
 * commit with a change (decision 283: the repository writes them in the change's own transaction).
 */
export class PackageCore {
  constructor(readonly d: PackageServiceDeps) {}

  now(): Date {
    return this.d.clock.now();
  }

  /**
   * The signer of a deciding call, checked before anything changes (decisions 141, 322): a wrong proof is
   * a 403 and counts as a failed sign-in, a throttled account a 429 as at sign-in. Answers how the signer
   * was confirmed, for the decision's audit event.
   */
  async confirmSignature(user: UserRecord, sig: SignatureInput): Promise<SignatureMethod> {
    return this.d.signatures.confirm(user, sig.proof, sig.sourceIp);
  }

  async mustGet(id: string): Promise<PackageRecord> {
    const p = await this.d.packages.get(id);
    if (!p) throw await packageNotFound(this.d.packages, id);
    return p;
  }

  /**
   * The status `action` moves the package to, by the lifecycle table; a ConflictError saying `refusal`
   * when the package's status does not allow the action.
   */
  nextStatus(p: Pick<PackageRecord, 'status'>, action: PackageAction, refusal: string, ctx?: VoteContext) {
    const to = nextStatus(p.status, action, ctx);
    if (!to) throw new ConflictError(refusal);
    return to;
  }

  /**
   * Commits a transition with what goes with it (events, tasks, mails: one transaction); a lost race
   * (version or status moved) is a 409 the user can act on, and nothing of it was written.
   */
  async saveOrConflict(
    next: PackageRecord,
    expected: { version: number; status: PackageStatus },
    commit?: PackageCommit,
  ): Promise<void> {
    if (!(await this.d.packages.save(next, expected, commit))) {
      throw new ConflictError('The package changed meanwhile; reload it and try again');
    }
  }

  /**
   * The audit event of an action on `p` (its state after the action: `status` is the one it leads to),
   * committed by the repository with the change itself (decision 283).
   */
  event(
    p: Pick<PackageRecord, 'id' | 'name' | 'status'>,
    actor: Pick<UserRecord, 'id' | 'name' | 'userRole'>,
    action: string,
    meaning: string,
    details?: Record<string, unknown>,
  ): AuditEvent {
    return {
      subject: `PKG#${p.id}`,
      action,
      meaning,
      ...byActor(actor),
      details: { packageName: p.name, status: p.status, ...details },
    };
  }

  /**
   * A workflow mail for the outbox, committed with the state change that causes it (decision 095). The
   * id names the package, the version the change produces (`basis`), the event and the recipient: the
   * same event never mails one person twice, and every new event mails afresh.
   */
  mail(
    p: Pick<PackageRecord, 'id'>,
    basis: number,
    event: string,
    to: Pick<UserRef, 'id' | 'email'>,
    { subject, text }: MailText,
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

  /** The package after its XML was generated: the next status, the file and where it lies. */
  withArtefact(p: PackageRecord, status: PackageStatus, artefact: ArtefactRef, at: Date): PackageRecord {
    return {
      ...p,
      status,
      artefact,
      linkToS3: artefact.key,
      updatedAt: at.toISOString(),
      version: p.version + 1,
    };
  }

  /**
   * The DCC the package carries (decision 192): the copy recorded on the package when the DCC was attached,
   * which the reviewers saw, never the DCC table's current row; a package given its DCC before copies were
   * recorded (decision 150) falls back to the row, which cannot be deleted while a package uses it.
   */
  async reviewedDcc(p: PackageRecord): Promise<ArtefactDcc> {
    if (p.dccId && p.dcc) return { id: p.dccId, ...p.dcc };
    const dcc = p.dccId ? await this.d.dccs.get(p.dccId) : null;
    if (!dcc) throw new ConflictError('The DCC of this package was deleted; the package cannot be generated');
    return dcc;
  }

  /** Generates and stores the XML package of a fully approved package (signed by `signedBy`, if any). */
  async buildArtefact(
    p: PackageRecord,
    signedBy: UserRecord | undefined,
    at: Date,
    onProgress?: (bytesDone: number) => void,
  ) {
    const resource = await this.d.resources.getById(p.resourceId);
    if (!resource)
      throw new ConflictError('The resource of this package was deleted; the package cannot be generated');
    const dcc = await this.reviewedDcc(p);
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
      onProgress,
    });
  }
}
