import type { NotifyRequest, Package, UserRef } from '../../../shared/api/contracts/packages';
import { BadRequestError, ConflictError } from '../../../shared/domain/errors';
import { DELIVERY_ROUND, deliveryActionFrom } from '../../../shared/domain/package-lifecycle';
import { isDeliverableType } from '../../../shared/domain/package-rules';
import { AUDIT_MEANING, PACKAGE_ERR } from '../../../shared/domain/package-texts';
import type { DecisionPlan, PackageRecord } from '../../ports/package-repository';
import type { UserRecord } from '../../ports/user-repository';
import { signatureDetails } from './audit-texts';
import { MAIL_TEXTS } from './mail-texts';
import type { SignedBy } from './package-changes';
import { toPackage, userRef } from './package-deps';
import { deliveredArtefact, deliveredFile } from './stored-artefact';
import { type VoteOutcome, VotingRoundCase } from './voting-round';

/** The delivery round: a release engineer (re-)delivers an approved release package; the last vote delivers it. */
export class Delivery extends VotingRoundCase {
  readonly round = DELIVERY_ROUND;

  /** `how`: how the deliverer was confirmed, for the audit record (decision 322). */
  async deliver(user: UserRecord, id: string, req: NotifyRequest, how?: SignedBy): Promise<Package> {
    const { core } = this;
    const p = await core.mustGet(id);
    if (p.resourceStage !== 'RELEASE') throw new ConflictError(PACKAGE_ERR.releaseOnly);
    // devices refuse it (docs/package-format.md §7 rule 1): never sent, also not re-sent (decision 193)
    if (!isDeliverableType(p)) throw new ConflictError(PACKAGE_ERR.unsignedNotDeliverable);
    const action = deliveryActionFrom(p.status);
    if (!action) throw new ConflictError(PACKAGE_ERR.notDeliverable);
    if (req.signer) throw new BadRequestError('A delivery has no signer');
    const { chosen } = await this.choice.choose(DELIVERY_ROUND.name, p, req.approvers, user);
    const status = core.nextStatus(p, action, 'The package changed meanwhile; reload it');
    const next = await this.start(
      p,
      status,
      user,
      chosen,
      (now) => ({
        deliverer: userRef(user),
        rejectionNote: undefined,
        deliveryStartedAt: p.deliveryStartedAt ?? now,
      }),
      true,
      (n) =>
        core.event(
          n,
          user,
          action === 'redeliver' ? 'REDELIVERED' : 'DELIVERY_STARTED',
          AUDIT_MEANING.deliver,
          {
            approvers: chosen.map((u) => ({ id: u.id, name: u.name, role: u.userRole })),
            ...signatureDetails(action, user, n.updatedAt, undefined, how?.signatureMethod),
            ...how,
          },
        ),
    );
    return toPackage(next);
  }

  /** The last delivery approval delivers the package: its mails, the end of every task and DELIVERED, in one transaction. */
  protected async completion(user: UserRecord, p: PackageRecord): Promise<DecisionPlan> {
    const { core } = this;
    // what is delivered is what was generated (decision 302): a stored file that is not is refused (409)
    // before anything is recorded; the package stays DELIVERY_PENDING, the vote recorded, and the last
    // voter's task stays for the retry that completes it once the file is restored
    const file = await deliveredArtefact(core, p);
    const now = core.now().toISOString();
    const next: PackageRecord = {
      ...p,
      status: core.nextStatus(p, DELIVERY_ROUND.vote, 'The package changed meanwhile; reload it', {
        lastVote: true,
        signed: p.signed,
      }),
      mLifePath: p.artefact?.key ?? p.mLifePath,
      updatedAt: now,
      version: p.version + 1,
    };
    const mails = [p.initiator, p.deliverer]
      .filter((u): u is UserRef => !!u)
      .map((u) =>
        core.mail(next, next.version, 'DELIVERED', u, MAIL_TEXTS.delivered(u, p, core.d.appUrl, file)),
      );
    return {
      next,
      commit: {
        removeAll: true,
        mails,
        // the delivery names the file it delivers: key, size, SHA-256 and S3 version (where versioned)
        events: [
          core.event(next, user, 'DELIVERED', AUDIT_MEANING.delivered, { delivered: deliveredFile(file) }),
        ],
      },
    };
  }

  protected async completed(next: PackageRecord): Promise<VoteOutcome> {
    return { outcome: 'DELIVERED', pkg: toPackage(next) };
  }
}
