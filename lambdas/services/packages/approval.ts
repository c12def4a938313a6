import type { NotifyRequest, Package } from '../../../shared/api/contracts/packages';
import { APPROVAL_POLICY, needsSigner, signerCandidates } from '../../../shared/domain/approval-policy';
import { BadRequestError, ConflictError } from '../../../shared/domain/errors';
import { APPROVAL_ROUND } from '../../../shared/domain/package-lifecycle';
import { AUDIT_MEANING, PACKAGE_ERR } from '../../../shared/domain/package-texts';
import { roleLabel } from '../../../shared/domain/roles';
import { MSG } from '../../../shared/messages';
import type { DecisionPlan, PackageRecord, Task } from '../../ports/package-repository';
import type { UserRecord } from '../../ports/user-repository';
import { assertDraftOwner } from './draft-editing';
import { Generation } from './generation';
import { MAIL_TEXTS } from './mail-texts';
import { toPackage, userRef } from './package-deps';
import { type VoteOutcome, VotingRoundCase } from './voting-round';

/** The approval round: the initiator sends a draft to approvers (and a signer); the last vote generates or asks for the signature. */
export class Approval extends VotingRoundCase {
  readonly round = APPROVAL_ROUND;

  async notify(user: UserRecord, id: string, req: NotifyRequest): Promise<Package> {
    const { core } = this;
    const p = await core.mustGet(id);
    const status = assertDraftOwner(core, p, user, APPROVAL_ROUND.start, 'notify approvers');
    if (!p.dccId) throw new ConflictError(PACKAGE_ERR.dccMissing);
    const { chosen, candidates, parties } = await this.choice.choose(
      APPROVAL_ROUND.name,
      p,
      req.approvers,
      user,
      req.signer,
    );

    // the signer: a candidate of the policy's signer role (shared/domain/approval-policy.ts)
    let signer: UserRecord | undefined;
    if (needsSigner(APPROVAL_ROUND.name, p)) {
      const signers = signerCandidates(parties, candidates);
      if (signers.length === 0) throw new BadRequestError(MSG.noSigners);
      if (!req.signer) throw new BadRequestError(PACKAGE_ERR.signerMissing);
      signer = signers.find((s) => s.id === req.signer);
      if (!signer)
        throw new BadRequestError(`The chosen signer is not a ${roleLabel(APPROVAL_POLICY.signer.role)}`);
      if (!APPROVAL_POLICY.signer.mayAlsoApprove && chosen.some((c) => c.id === signer?.id))
        throw new BadRequestError(PACKAGE_ERR.signerApproves);
    } else if (req.signer) {
      throw new BadRequestError(PACKAGE_ERR.signerUnexpected);
    }

    const next = await this.start(
      p,
      status,
      user,
      chosen,
      () => ({ signer: signer ? userRef(signer) : undefined }),
      false,
      (n) =>
        core.event(n, user, 'APPROVAL_REQUESTED', AUDIT_MEANING.notify, {
          approvers: chosen.map((u) => ({ id: u.id, name: u.name, role: u.userRole })),
          signer: signer ? { id: signer.id, name: signer.name } : undefined,
        }),
    );
    return toPackage(next);
  }

  /**
   * The last approval's step: a signed package waits for its signer (task and mail), an unsigned one is
   * generated off the request path (decision 160): GENERATING with its generation record, every open task
   * kept until the worker commits. FULLY_APPROVED records it, in the same transaction.
   */
  protected async completion(user: UserRecord, p: PackageRecord): Promise<DecisionPlan> {
    const { core } = this;
    const now = core.now();
    if (p.signed) {
      const status = core.nextStatus(p, APPROVAL_ROUND.vote, 'The package changed meanwhile; reload it', {
        lastVote: true,
        signed: p.signed,
      });
      const signer = p.signer!;
      const next: PackageRecord = { ...p, status, updatedAt: now.toISOString(), version: p.version + 1 };
      const task: Task = {
        kind: 'SIGN',
        userId: signer.id,
        packageId: p.id,
        stage: p.resourceStage,
        createdAt: now.toISOString(),
      };
      const signerMail = core.mail(
        next,
        next.version,
        'SIGNATURE_REQUESTED',
        signer,
        MAIL_TEXTS.signatureRequested(signer, p, core.d.appUrl),
      );
      return {
        next,
        commit: {
          add: [task],
          removeAll: true,
          mails: [signerMail],
          events: [core.event(next, user, 'FULLY_APPROVED', AUDIT_MEANING.fullyApprovedSigned)],
        },
      };
    }
    const next = await new Generation(core).plan(p, user);
    return { next, commit: { events: [core.event(next, user, 'FULLY_APPROVED', AUDIT_MEANING.generating)] } };
  }

  protected async completed(next: PackageRecord): Promise<VoteOutcome> {
    if (next.status === 'AWAITING_SIGNATURE') return { outcome: 'WAITING_FOR_SIGNING', pkg: toPackage(next) };
    // the XML is generated off the request path (decision 160): the package is GENERATING until the worker commits
    await new Generation(this.core).start(next);
    return { outcome: 'GENERATING', pkg: toPackage(next) };
  }

  /** The last approver's retry after a crash between the commit and the generation's hand-over (decision 284). */
  protected override async retried(user: UserRecord, p: PackageRecord): Promise<VoteOutcome | null> {
    const resumed = await new Generation(this.core).resume(p, user);
    return resumed ? { outcome: 'GENERATING', pkg: toPackage(resumed) } : null;
  }
}
