import { APPROVAL_POLICY } from './approval-policy';
import { assertNever } from './assert-never';
import type { PackageStatus } from './model/package';
import type { PackageAction, PackageActor } from './package-actions';
import type { Role } from './roles';
import { APPROVAL_ROUND, DELIVERY_ROUND } from './voting-rounds';

export { type VoteRefusal, type VoteState, voteRefusal } from './approval-policy';
export type { PackageAction, PackageActor } from './package-actions';
// The voting rounds and the vote rule live beside this table (split by seam); importers keep this path.
export {
  APPROVAL_ROUND,
  allVoted,
  DELIVERY_ROUND,
  doneStatus,
  ROUNDS,
  type RoundCounters,
  type RoundName,
  roundWaitingIn,
  type VotingRound,
} from './voting-rounds';

/**
 * The package lifecycle as data (DESIGN §2, docs/architecture.md "Package lifecycle"): every status
 * change the portal makes is a row of `TRANSITIONS`, and the two voting rounds (approval, delivery) are
 * one shape, `VotingRound` (`voting-rounds.ts`); who may take each step is the approval policy's
 * (`approval-policy.ts`). The services, the DynamoDB adapter, the web app and its mock read this table;
 * `package-lifecycle-diagram.test.ts` pins it to the documented diagram. Type-only imports: this module
 * stays tiny in every bundle.
 */

/** When a row applies beyond its status: a vote that is not the last, or the last vote of a signed/unsigned package. */
export type TransitionCondition =
  | 'notLastVote'
  | 'lastVoteSigned'
  | 'lastVoteUnsigned'
  | 'lastVote'
  | 'signed'
  | 'unsigned';

/** `from: '*'` is any status; `to: null` removes the package. */
export interface Transition {
  readonly from: PackageStatus | '*';
  readonly action: PackageAction;
  readonly to: PackageStatus | null;
  readonly who: PackageActor;
  readonly when?: TransitionCondition;
  /** only release packages (deliveries) */
  readonly releaseOnly?: true;
}

/** A new package starts as a draft of its initiator. */
export const INITIAL_STATUS = 'DRAFT' as const satisfies PackageStatus;

export const TRANSITIONS: readonly Transition[] = [
  { from: 'DRAFT', action: 'editHeader', to: 'DRAFT', who: 'initiator' },
  { from: 'DRAFT', action: 'attachDcc', to: 'DRAFT', who: 'initiator' },
  { from: 'DRAFT', action: 'notify', to: 'PENDING_APPROVAL', who: 'initiator' },
  {
    from: 'PENDING_APPROVAL',
    action: 'approve',
    to: 'PENDING_APPROVAL',
    who: 'approver',
    when: 'notLastVote',
  },
  {
    from: 'PENDING_APPROVAL',
    action: 'approve',
    to: 'GENERATING',
    who: 'approver',
    when: 'lastVoteUnsigned',
  },
  {
    from: 'PENDING_APPROVAL',
    action: 'approve',
    to: 'AWAITING_SIGNATURE',
    who: 'approver',
    when: 'lastVoteSigned',
  },
  { from: 'PENDING_APPROVAL', action: 'reject', to: 'REJECTED', who: 'approver' },
  { from: 'AWAITING_SIGNATURE', action: 'sign', to: 'GENERATING', who: 'signer' },
  { from: 'AWAITING_SIGNATURE', action: 'rejectSigning', to: 'REJECTED', who: 'signer' },
  { from: 'GENERATING', action: 'generated', to: 'APPROVED', who: 'worker', when: 'unsigned' },
  { from: 'GENERATING', action: 'generated', to: 'SIGNED', who: 'worker', when: 'signed' },
  {
    from: 'GENERATING',
    action: 'generationFailed',
    to: 'PENDING_APPROVAL',
    who: 'worker',
    when: 'unsigned',
  },
  {
    from: 'GENERATING',
    action: 'generationFailed',
    to: 'AWAITING_SIGNATURE',
    who: 'worker',
    when: 'signed',
  },
  {
    from: 'PENDING_APPROVAL',
    action: 'retryGeneration',
    to: 'GENERATING',
    who: 'decider',
    when: 'unsigned',
  },
  {
    from: 'AWAITING_SIGNATURE',
    action: 'retryGeneration',
    to: 'GENERATING',
    who: 'decider',
    when: 'signed',
  },
  { from: 'APPROVED', action: 'deliver', to: 'DELIVERY_PENDING', who: 'releaseEngineer', releaseOnly: true },
  { from: 'SIGNED', action: 'deliver', to: 'DELIVERY_PENDING', who: 'releaseEngineer', releaseOnly: true },
  {
    from: 'DELIVERY_PENDING',
    action: 'approveDelivery',
    to: 'DELIVERY_PENDING',
    who: 'deliveryApprover',
    when: 'notLastVote',
  },
  {
    from: 'DELIVERY_PENDING',
    action: 'approveDelivery',
    to: 'DELIVERED',
    who: 'deliveryApprover',
    when: 'lastVote',
  },
  { from: 'DELIVERY_PENDING', action: 'rejectDelivery', to: 'DELIVERY_REJECTED', who: 'deliveryApprover' },
  {
    from: 'DELIVERY_REJECTED',
    action: 'redeliver',
    to: 'DELIVERY_PENDING',
    who: 'releaseEngineer',
    releaseOnly: true,
  },
  // change of people (decision 351): the round goes on with another person, or the package is a draft again
  { from: 'PENDING_APPROVAL', action: 'reassign', to: 'PENDING_APPROVAL', who: 'owner' },
  { from: 'AWAITING_SIGNATURE', action: 'reassign', to: 'AWAITING_SIGNATURE', who: 'owner' },
  { from: 'DELIVERY_PENDING', action: 'reassign', to: 'DELIVERY_PENDING', who: 'owner' },
  { from: 'PENDING_APPROVAL', action: 'withdraw', to: 'DRAFT', who: 'owner' },
  { from: 'AWAITING_SIGNATURE', action: 'withdraw', to: 'DRAFT', who: 'owner' },
  { from: '*', action: 'delete', to: null, who: 'admin' },
];

/** The role an actor must hold, where the actor is a role rather than a relationship to the package. */
export const ACTOR_ROLE: Partial<Record<PackageActor, Role>> = {
  releaseEngineer: APPROVAL_POLICY.deliverer.role,
  admin: 'ADMIN',
};

const matches = (t: Transition, from: PackageStatus, action: PackageAction) =>
  t.action === action && (t.from === from || t.from === '*');

/** The rows of an action from a status (several for a vote: not last, last signed, last unsigned). */
export function transitionsOf(from: PackageStatus, action: PackageAction): Transition[] {
  return TRANSITIONS.filter((t) => matches(t, from, action));
}

/** Whether the action is possible at all in this status. */
export function canTransition(from: PackageStatus, action: PackageAction): boolean {
  return TRANSITIONS.some((t) => matches(t, from, action));
}

/** The statuses in which an action is possible (e.g. the statuses a release engineer may deliver from). */
export function statusesAllowing(action: PackageAction): PackageStatus[] {
  return [
    ...new Set(TRANSITIONS.filter((t) => t.action === action && t.from !== '*').map((t) => t.from)),
  ] as PackageStatus[];
}

/** What a vote is: whether it is the last of its round, and whether the package is signed. */
export interface VoteContext {
  lastVote?: boolean;
  signed?: boolean;
}

function conditionHolds(when: TransitionCondition | undefined, ctx: VoteContext): boolean {
  switch (when) {
    case undefined:
      return true;
    case 'notLastVote':
      return !ctx.lastVote;
    case 'lastVote':
      return !!ctx.lastVote;
    case 'lastVoteSigned':
      return !!ctx.lastVote && !!ctx.signed;
    case 'lastVoteUnsigned':
      return !!ctx.lastVote && !ctx.signed;
    case 'signed':
      return !!ctx.signed;
    case 'unsigned':
      return !ctx.signed;
    default:
      return assertNever(when, 'transition condition');
  }
}

/**
 * The status an action leads to from `from` (null: the package is removed), or undefined when the table
 * has no such transition.
 */
export function nextStatus(
  from: PackageStatus,
  action: PackageAction,
  ctx: VoteContext = {},
): PackageStatus | null | undefined {
  return transitionsOf(from, action).find((t) => conditionHolds(t.when, ctx))?.to;
}

/** Who may do the action from this status (undefined: not possible). */
export function actorOf(from: PackageStatus, action: PackageAction): PackageActor | undefined {
  return transitionsOf(from, action)[0]?.who;
}

/** Who may do an action, in whatever status (every row of an action names the same actor). */
export function actorFor(action: PackageAction): PackageActor {
  return (TRANSITIONS.find((t) => t.action === action) as Transition).who;
}

/** Where an action leads, whatever status it starts from (the first row's `to`; null: removed). */
export function statusAfter(action: PackageAction): PackageStatus | null {
  return (TRANSITIONS.find((t) => t.action === action) as Transition).to;
}

/** The parts of a package that say who is who. */
export interface ActorState {
  initiator: { id: string };
  approvers?: Record<string, unknown>;
  signer?: { id: string };
  deliveryApprovers?: Record<string, unknown>;
  generation?: { requestedBy: { id: string } };
}

/** Whether the user is the actor for this package: the relationship, or the role for role actors. */
export function isActor(p: ActorState, user: { id: string; userRole: Role }, actor: PackageActor): boolean {
  switch (actor) {
    case 'initiator':
      return p.initiator.id === user.id;
    case 'approver':
      return !!p.approvers?.[user.id];
    case 'signer':
      return p.signer?.id === user.id;
    case 'deliveryApprover':
      return !!p.deliveryApprovers?.[user.id];
    case 'decider':
      return p.generation?.requestedBy.id === user.id;
    case 'worker':
      return false;
    case 'owner':
      return p.initiator.id === user.id || user.userRole === 'ADMIN';
    case 'releaseEngineer':
    case 'admin':
      return user.userRole === ACTOR_ROLE[actor];
    default:
      return assertNever(actor, 'package actor');
  }
}

/** Header and DCC can change only in a draft. */
export const isEditable = (status: PackageStatus): boolean => canTransition(status, 'editHeader');

export const isWaitingForApproval = (status: PackageStatus): boolean => status === APPROVAL_ROUND.waiting;
export const isWaitingForSignature = (status: PackageStatus): boolean => canTransition(status, 'sign');
export const isWaitingForDelivery = (status: PackageStatus): boolean => status === DELIVERY_ROUND.waiting;

/** A release engineer may deliver (or re-deliver) a release package from these statuses. */
export const DELIVERABLE_STATUSES: readonly PackageStatus[] = /* @__PURE__ */ deliverableStatuses();

function deliverableStatuses(): PackageStatus[] {
  return [...statusesAllowing('deliver'), ...statusesAllowing('redeliver')];
}
export const isDeliverable = (status: PackageStatus): boolean => DELIVERABLE_STATUSES.includes(status);

/** The action that moves a package from `from` into the delivery round: deliver, or re-deliver after a rejection. */
export function deliveryActionFrom(from: PackageStatus): 'deliver' | 'redeliver' | undefined {
  if (canTransition(from, 'redeliver')) return 'redeliver';
  if (canTransition(from, 'deliver')) return 'deliver';
  return undefined;
}

/**
 * Statuses in which the XML package exists: where the generation worker's success leads (APPROVED for an
 * unsigned package, SIGNED for a signed one) and every status reachable from there.
 */
export const GENERATED_STATUSES: readonly PackageStatus[] = /* @__PURE__ */ generatedStatuses();

function generatedStatuses(): PackageStatus[] {
  const seen = new Set<PackageStatus>(
    TRANSITIONS.filter((t) => t.action === 'generated').map((t) => t.to as PackageStatus),
  );
  for (let grew = true; grew; ) {
    grew = false;
    for (const t of TRANSITIONS) {
      if (t.from !== '*' && t.to && seen.has(t.from) && !seen.has(t.to)) {
        seen.add(t.to);
        grew = true;
      }
    }
  }
  return [...seen];
}

export const isGenerated = (status: PackageStatus): boolean => GENERATED_STATUSES.includes(status);

/** Statuses in which the package waits for someone's decision (approval, signature, delivery approval). */
export const WAITING_STATUSES: readonly PackageStatus[] = /* @__PURE__ */ waitingStatuses();

function waitingStatuses(): PackageStatus[] {
  return [APPROVAL_ROUND.waiting, ...statusesAllowing('sign'), DELIVERY_ROUND.waiting];
}

/** The package's XML is being generated (off the request path): nothing can be decided on it meanwhile. */
export const isGenerating = (status: PackageStatus): boolean => canTransition(status, 'generated');
