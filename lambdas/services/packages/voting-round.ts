import type {
  ApproveOutcome,
  ApproverEntry,
  Package,
  PackageStatus,
} from '../../../shared/api/contracts/packages';
import {
  APPROVAL_POLICY,
  awaitedApprovers,
  rolesAwaited,
  turnsOpenedBy,
} from '../../../shared/domain/approval-policy';
import { assertNever } from '../../../shared/domain/assert-never';
import { ConflictError, ForbiddenError, NotFoundError } from '../../../shared/domain/errors';
import {
  allVoted,
  doneStatus,
  isActor,
  type PackageAction,
  type RoundName,
  type VotingRound,
} from '../../../shared/domain/package-lifecycle';
import { AUDIT_MEANING, PACKAGE_ERR } from '../../../shared/domain/package-texts';
import { roleLabel } from '../../../shared/domain/roles';
import type { AuditEvent } from '../../ports/audit-log';
import type {
  DecisionPlan,
  OutboxMail,
  PackageRecord,
  Task,
  VoteResult,
} from '../../ports/package-repository';
import type { UserRecord } from '../../ports/user-repository';
import { type ApproverChoice, undecided } from './approver-choice';
import { signatureDetails } from './audit-texts';
import { MAIL_TEXTS, type RejectedStep } from './mail-texts';
import type { DecisionDetails } from './package-changes';
import { type PackageCore, packageNotFound } from './package-core';
import { toPackage } from './package-deps';

export interface VoteOutcome {
  outcome: ApproveOutcome;
  pkg: Package;
}

/** What the caller of a vote hears, by the status the round's last vote led to. */
const OUTCOME_OF: Partial<Record<PackageStatus, ApproveOutcome>> = {
  GENERATING: 'GENERATING',
  APPROVED: 'GENERATED',
  AWAITING_SIGNATURE: 'WAITING_FOR_SIGNING',
  DELIVERED: 'DELIVERED',
};

/** The audit actions and mail events of each round that are not a status name. */
const EVENTS: Record<RoundName, { request: string; vote: string }> = {
  approval: { request: 'APPROVAL_REQUESTED', vote: 'APPROVED' },
  delivery: { request: 'DELIVERY_REQUESTED', vote: 'DELIVERY_APPROVED' },
};

/** The mail asking a chosen approver to decide. */
const REQUEST_MAIL = { approval: MAIL_TEXTS.approvalRequested, delivery: MAIL_TEXTS.deliveryRequested };

const meaningOf = (action: PackageAction) =>
  AUDIT_MEANING[action as 'approve' | 'reject' | 'approveDelivery' | 'rejectDelivery'];

/** The step each rejection event refused, for the initiator's mail. */
const REJECTED_STEP_OF: Record<string, RejectedStep> = {
  REJECTED: 'approval',
  SIGNING_REJECTED: 'signing',
  DELIVERY_REJECTED: 'delivery',
};

/** The initiator's mail about a rejection; `basis` is the version the rejection started from. */
export function rejectionMail(
  core: PackageCore,
  p: PackageRecord,
  basis: number,
  event: string,
  by: UserRecord,
  note: string,
): OutboxMail {
  return core.mail(
    p,
    basis,
    `${event}#${by.id}`,
    p.initiator,
    MAIL_TEXTS.rejected(p.initiator, p, by, note, core.d.appUrl, REJECTED_STEP_OF[event] ?? 'approval'),
  );
}

/**
 * A person is chosen for the role they held then; whoever changed role since gave that grant up, so the
 * assignment no longer lets them decide (even once an admin granted their new role).
 */
function assertStillInRole(entry: ApproverEntry | undefined, user: UserRecord) {
  if (APPROVAL_POLICY.voterKeepsRole && entry && entry.role !== user.userRole)
    throw new ForbiddenError(
      `You were chosen as ${roleLabel(entry.role)} for this package, but you no longer hold that role (you are now ${roleLabel(user.userRole)}), so you cannot decide on it`,
    );
}

/** The roles (labels) whose approvers approve before the user in the round and have not yet. */
function awaitedRoles(p: PackageRecord, userId: string, round: VotingRound): string {
  return rolesAwaited(p, userId, round).map(roleLabel).join(', ');
}

/** The verb of a round's turn mail. */
const TURN_VERB = { approval: 'approve', delivery: 'approve the delivery of' } as const;

function explain(r: Exclude<VoteResult, { ok: true }>, what: string, awaited: () => string): never {
  switch (r.reason) {
    case 'notFound':
      throw new NotFoundError(PACKAGE_ERR.packageNotFound);
    case 'notAssigned':
      throw new ForbiddenError(PACKAGE_ERR.notVoter(what));
    case 'alreadyDecided':
      throw new ConflictError(PACKAGE_ERR.alreadyDecided);
    case 'notWaiting':
      throw new ConflictError(PACKAGE_ERR.notWaiting(what));
    case 'notYourTurn':
      throw new ConflictError(PACKAGE_ERR.notYourTurn(awaited()));
    default:
      return assertNever(r.reason, 'vote refusal');
  }
}

/**
 * One voting round (approval or delivery, `shared/domain/package-lifecycle.ts`): chosen approvers get a
 * task and a mail, each vote is counted once and commits with its event and its task's removal, any
 * rejection ends the round, and the last vote commits the round's next step with it (`completion`): one
 * transaction per decision (decision 283).
 */
export abstract class VotingRoundCase {
  /** which round (shared/domain/package-lifecycle.ts) */
  abstract readonly round: VotingRound;

  constructor(
    protected readonly core: PackageCore,
    /** both rounds start with a choice of approvers */
    protected readonly choice: ApproverChoice,
  ) {}

  /**
   * What the round's last vote commits besides itself: the package after the round's next step (one
   * version on from `voted`), its tasks, mails and events. Planned from the package with every vote in.
   */
  protected abstract completion(user: UserRecord, voted: PackageRecord): Promise<DecisionPlan>;

  /** What follows a committed completion outside the transaction (a generation handed to its worker). */
  protected abstract completed(next: PackageRecord): Promise<VoteOutcome>;

  /**
   * A voter's retry of a decision that is already committed, where one step of it may not have run (a
   * generation never handed over, decision 284): answered when the round finishes it, else null.
   */
  protected async retried(_user: UserRecord, _p: PackageRecord): Promise<VoteOutcome | null> {
    return null;
  }

  /**
   * Completes a fully voted round on its own commit, conditional on the state (so it happens once): the
   * decider's retry after a failed generation, and rounds voted in full before completions were part of
   * the last vote's commit.
   */
  protected async complete(user: UserRecord, p: PackageRecord): Promise<VoteOutcome> {
    const { next, commit } = await this.completion(user, p);
    if (!(await this.core.d.packages.save(next, { version: p.version, status: this.round.waiting }, commit)))
      return this.settled(p);
    return this.completed(next);
  }

  /**
   * The mails of a rejection of `p` (`basis`: the version the rejection started from): the initiator's
   * (event: the rejected status), and the deliverer's when someone else started the round (only a
   * delivery has a deliverer).
   */
  private rejectionMails(p: PackageRecord, basis: number, by: UserRecord, note: string): OutboxMail[] {
    const { core, round } = this;
    const mails = [rejectionMail(core, p, basis, round.rejected, by, note)];
    if (p.deliverer && p.deliverer.id !== p.initiator.id)
      mails.push(
        core.mail(
          p,
          basis,
          `${round.rejected}#${by.id}`,
          p.deliverer,
          MAIL_TEXTS.deliveryRejected(p.deliverer, p, by, note, core.d.appUrl),
        ),
      );
    return mails;
  }

  /**
   * Starts the round on `p` (status `status` after the start), with tasks and mails for the chosen and
   * the start's audit event (`event`, of the package as started): one transaction. `fields` are the
   * round's own extra fields; `removeAll` drops open tasks of an earlier round.
   */
  protected async start(
    p: PackageRecord,
    status: PackageStatus,
    user: UserRecord,
    chosen: UserRecord[],
    fields: (now: string) => Partial<PackageRecord>,
    removeAll: boolean,
    event: (next: PackageRecord) => AuditEvent,
  ): Promise<PackageRecord> {
    const { core, round } = this;
    const now = core.now().toISOString();
    const next: PackageRecord = {
      ...p,
      status,
      [round.list]: undecided(chosen),
      [round.size]: chosen.length,
      [round.votes]: 0,
      ...fields(now),
      updatedAt: now,
      version: p.version + 1,
    };
    const tasks: Task[] = chosen.map((u) => ({
      kind: round.task,
      userId: u.id,
      packageId: p.id,
      stage: p.resourceStage,
      createdAt: now,
    }));
    // The mails commit with the state change (decision 095): a mail outage never blocks the workflow.
    // with an order (the approval policy's `approvesAfter`) only those whose turn is open are asked
    // now; the others are mailed by the vote that opens their turn (`turnMails`)
    const asked = chosen.filter((u) => awaitedApprovers(next, u.id, round).length === 0);
    const mails = asked.map((u) =>
      core.mail(
        next,
        next.version,
        EVENTS[round.name].request,
        u,
        REQUEST_MAIL[round.name](u, p, user, core.d.appUrl),
      ),
    );
    await core.saveOrConflict(
      next,
      { version: p.version, status: p.status },
      { add: tasks, mails, events: [event(next)], ...(removeAll ? { removeAll } : {}) },
    );
    return next;
  }

  /**
   * The mails to the approvers whose turn `user`'s approval (counted in `voted`) opened: part of the
   * vote's commit, keyed by the vote's version, so each is sent exactly once.
   */
  private turnMails(voted: PackageRecord, user: UserRecord): OutboxMail[] {
    const { core, round } = this;
    const list = voted[round.list];
    return turnsOpenedBy(voted, user.id, round).flatMap((id) => {
      const to = list[id]?.user;
      if (!to) return [];
      const after = [...new Set(awaitedApprovers(voted, id, round).map((a) => roleLabel(list[a]!.role)))];
      return [
        core.mail(
          voted,
          voted.version,
          `TURN_OPENED#${user.id}`,
          to,
          MAIL_TEXTS.turnOpened(to, voted, after.join(', '), TURN_VERB[round.name], core.d.appUrl),
        ),
      ];
    });
  }

  /** `seen`: the comparison the decision was taken on, for its audit record (decision 266). */
  async vote(user: UserRecord, id: string, seen?: DecisionDetails): Promise<VoteOutcome> {
    const { core, round } = this;
    const before = await core.mustGet(id);
    const entry = before[round.list][user.id];
    assertStillInRole(entry, user);
    // a fully voted round whose next step failed earlier: the approver's retry finishes it
    // (after a failed generation only its decider, decision 160: the others are told they decided already)
    if (
      entry?.approved &&
      before.status === round.waiting &&
      allVoted(before, round) &&
      (!before.generation || isActor(before, user, 'decider'))
    ) {
      return this.complete(user, before);
    }
    if (entry?.approved) {
      const retried = await this.retried(user, before);
      if (retried) return retried;
    }
    const at = core.now().toISOString();
    const r = await core.d.packages.vote(id, user.id, round.name, at, async (voted) => {
      const event = core.event(voted, user, EVENTS[round.name].vote, meaningOf(round.vote), {
        approved: `${voted[round.votes]}/${voted[round.size]}`,
        ...signatureDetails(
          round.vote as 'approve' | 'approveDelivery',
          user,
          at,
          voted.type,
          seen?.signatureMethod,
        ),
        ...seen,
      });
      if (!allVoted(voted, round))
        return {
          next: voted,
          commit: {
            remove: [{ kind: round.task, userId: user.id }],
            events: [event],
            mails: this.turnMails(voted, user),
          },
        };
      // the last vote: the round's next step commits with it; where the last voter's task stays until the
      // step is done (a failed generation is retried from the decider's list), the completion decides
      const done = await this.completion(user, voted);
      const remove = round.lastTaskStaysUntilDone ? [] : [{ kind: round.task, userId: user.id }];
      return {
        next: done.next,
        commit: {
          ...done.commit,
          remove: [...remove, ...(done.commit.remove ?? [])],
          events: [event, ...(done.commit.events ?? [])],
        },
      };
    });
    // deleted meanwhile: say by whom, when and why
    if (!r.ok && r.reason === 'notFound') throw await packageNotFound(core.d.packages, id);
    if (!r.ok) explain(r, round.noun, () => awaitedRoles(before, user.id, round));
    if (r.pkg.status === round.waiting) return { outcome: 'WAITING_FOR_APPROVALS', pkg: toPackage(r.pkg) };
    return this.completed(r.pkg);
  }

  /** The outcome of a completion that lost its race: the winner's, or a 409 if the package moved elsewhere. */
  protected async settled(p: PackageRecord): Promise<VoteOutcome> {
    const again = await this.core.mustGet(p.id);
    const outcome = OUTCOME_OF[again.status];
    if (again.status === doneStatus(this.round, p.signed) && outcome)
      return { outcome, pkg: toPackage(again) };
    throw new ConflictError('The package changed meanwhile; reload it');
  }

  async reject(user: UserRecord, id: string, note: string, seen?: DecisionDetails): Promise<Package> {
    const { core, round } = this;
    const at = core.now().toISOString();
    const before = await core.d.packages.get(id);
    assertStillInRole(before?.[round.list][user.id], user);
    // the rejection, its event, the end of every open task and the mails: one transaction (decision 283)
    const r = await core.d.packages.reject(id, user.id, round.name, note, at, async (rejected) => ({
      next: rejected,
      commit: {
        removeAll: true,
        mails: this.rejectionMails(rejected, rejected.version - 1, user, note),
        events: [
          core.event(rejected, user, round.rejected, meaningOf(round.reject), {
            rejectionNote: note,
            ...signatureDetails(
              round.reject as 'reject' | 'rejectDelivery',
              user,
              at,
              rejected.type,
              seen?.signatureMethod,
            ),
            ...seen,
          }),
        ],
      },
    }));
    if (!r.ok && r.reason === 'notFound') throw await packageNotFound(core.d.packages, id);
    if (!r.ok) explain(r, round.noun, () => '');
    return toPackage(r.pkg);
  }
}
