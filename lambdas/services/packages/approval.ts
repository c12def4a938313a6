import type { NotifyRequest, Package } from '../../../shared/api/contracts/packages';
import { APPROVAL_POLICY, needsSigner, signerCandidates } from '../../../shared/domain/approval-policy';
import { BadRequestError, ConflictError } from '../../../shared/domain/errors';
import { APPROVAL_ROUND } from '../../../shared/domain/package-lifecycle';
import { AUDIT_MEANING, PACKAGE_ERR } from '../../../shared/domain/package-texts';
import { roleLabel } from '../../../shared/domain/roles';
import { MSG } from '../../../shared/messages';
import type { PackageRecord, Task } from '../../ports/package-repository';
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
    const { chosen, candidates } = await this.choice.choose(
      APPROVAL_ROUND.name,
      p,
      req.approvers,
      user,
      req.signer,
    );

    // the signer: a candidate of the policy's signer role (shared/domain/approval-policy.ts)
    let signer: UserRecord | undefined;
    if (needsSigner(APPROVAL_ROUND.name, p)) {
      const signers = signerCandidates(p, candidates);
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
    );
    await core.audit(next, user, 'APPROVAL_REQUESTED', AUDIT_MEANING.notify, {
      approvers: chosen.map((u) => ({ id: u.id, name: u.name, role: u.userRole })),
      signer: signer ? { id: signer.id, name: signer.name } : undefined,
    });
    return toPackage(next);
  }

  /** Exactly one caller sees the last vote; it moves the package on (conditional on the state, so once). */
  protected async complete(user: UserRecord, p: PackageRecord): Promise<VoteOutcome> {
    const { core } = this;
    const now = core.now();
    const status = core.nextStatus(p, APPROVAL_ROUND.vote, 'The package changed meanwhile; reload it', {
      lastVote: true,
      signed: p.signed,
    });
    const expected = { version: p.version, status: APPROVAL_ROUND.waiting };
    if (p.signed) {
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
      if (
        !(await core.d.packages.save(next, expected, { add: [task], removeAll: true, mails: [signerMail] }))
      )
        return this.settled(p);
      await core.audit(next, user, 'FULLY_APPROVED', AUDIT_MEANING.fullyApprovedSigned);
      return { outcome: 'WAITING_FOR_SIGNING', pkg: toPackage(next) };
    }
    // the XML is generated off the request path (decision 160): the package is GENERATING until the worker commits
    const next = await new Generation(core).begin(p, user, (n) =>
      core.audit(n, user, 'FULLY_APPROVED', AUDIT_MEANING.generating),
    );
    if (!next) return this.settled(p);
    return { outcome: 'GENERATING', pkg: toPackage(next) };
  }
}
