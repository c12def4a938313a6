import type { PackageStatus } from './model/package';
import type { PackageAction, PackageActor } from './package-actions';

/**
 * The two voting rounds of the package lifecycle (approval, delivery) as one shape: which map of the
 * package holds the chosen approvers, its counters and the statuses around it. Split from
 * `package-lifecycle.ts`, which re-exports it; who must vote and in which order is the approval policy's
 * (`approval-policy.ts`).
 */

/** The two voting rounds. */
export type RoundName = 'approval' | 'delivery';

/**
 * One round of votes: a list of chosen approvers (a map by user id on the package, so each vote is one
 * atomic update), a counter of votes against the list's size, the status while it waits, the status a
 * rejection leads to, and the status after the last vote.
 */
export interface VotingRound {
  readonly name: RoundName;
  /** the package's map of chosen approvers */
  readonly list: 'approvers' | 'deliveryApprovers';
  /** how many were chosen */
  readonly size: 'approverCount' | 'deliveryApproverCount';
  /** how many approved so far */
  readonly votes: 'approvedCount' | 'deliveryApprovedCount';
  readonly waiting: PackageStatus;
  readonly rejected: PackageStatus;
  /** the status after the last vote, by whether the package is signed */
  readonly done: { readonly signed: PackageStatus; readonly unsigned: PackageStatus };
  /** the action that starts the round (and restarts it, if any) */
  readonly start: PackageAction;
  readonly restart?: PackageAction;
  readonly vote: PackageAction;
  readonly reject: PackageAction;
  readonly voter: PackageActor;
  /** the task kind each chosen approver gets in their list */
  readonly task: 'APPROVE' | 'DELIVERY';
  /** what the round is about, in messages ("You are not an approver of this …") */
  readonly noun: 'package' | 'delivery';
  /**
   * The last voter's task stays until the completion commits, so a completion that failed is retried from
   * the voter's list (approval: a failed generation; delivery: a stored file that is not the generated
   * one, decision 302); false: it goes with the vote.
   */
  readonly lastTaskStaysUntilDone: boolean;
}

export const APPROVAL_ROUND: VotingRound = {
  name: 'approval',
  list: 'approvers',
  size: 'approverCount',
  votes: 'approvedCount',
  waiting: 'PENDING_APPROVAL',
  rejected: 'REJECTED',
  // an unsigned package is generated off the request path after the last vote (GENERATING → APPROVED)
  done: { signed: 'AWAITING_SIGNATURE', unsigned: 'GENERATING' },
  start: 'notify',
  vote: 'approve',
  reject: 'reject',
  voter: 'approver',
  task: 'APPROVE',
  noun: 'package',
  lastTaskStaysUntilDone: true,
};

export const DELIVERY_ROUND: VotingRound = {
  name: 'delivery',
  list: 'deliveryApprovers',
  size: 'deliveryApproverCount',
  votes: 'deliveryApprovedCount',
  waiting: 'DELIVERY_PENDING',
  rejected: 'DELIVERY_REJECTED',
  done: { signed: 'DELIVERED', unsigned: 'DELIVERED' },
  start: 'deliver',
  restart: 'redeliver',
  vote: 'approveDelivery',
  reject: 'rejectDelivery',
  voter: 'deliveryApprover',
  task: 'DELIVERY',
  noun: 'delivery',
  // a completion refused because the stored file is not the generated one (decision 302) is retried from
  // the last voter's list once the file is restored
  lastTaskStaysUntilDone: true,
};

export const ROUNDS: Readonly<Record<RoundName, VotingRound>> = {
  approval: APPROVAL_ROUND,
  delivery: DELIVERY_ROUND,
};

/** The round a status waits in (undefined: no round waits). */
export function roundWaitingIn(status: PackageStatus): VotingRound | undefined {
  return status === APPROVAL_ROUND.waiting
    ? APPROVAL_ROUND
    : status === DELIVERY_ROUND.waiting
      ? DELIVERY_ROUND
      : undefined;
}

/** The counters of a round on a package. */
export interface RoundCounters {
  approverCount: number;
  approvedCount: number;
  deliveryApproverCount: number;
  deliveryApprovedCount: number;
}

/** Whether every chosen approver of the round has approved. */
export function allVoted(p: RoundCounters, round: VotingRound): boolean {
  return p[round.votes] >= p[round.size];
}

/** The status after the round's last vote. */
export function doneStatus(round: VotingRound, signed: boolean): PackageStatus {
  return signed ? round.done.signed : round.done.unsigned;
}
