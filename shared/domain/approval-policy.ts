import { approvalPolicyNamed, approvalPolicyNameFromEnv } from './approval-policies';
import type { ApprovalPolicy, Party } from './approval-policy-shape';
import { assertNever } from './assert-never';
import type { PackageType } from './model/package';
import { NON_ADMIN_ROLES, type NonAdminRole, type Role } from './roles';
import type { RoundName, VotingRound } from './voting-rounds';

export type { ApprovalPolicy, Party, RoundPolicy } from './approval-policy-shape';

/**
 * The approval policy as data (DESIGN §2 "Who may do what", docs/decisions/225-one-approval-policy.md):
 * which roles approve in each voting round for each package type, how many at least, who may not
 * approve, who signs and who delivers, and in which order roles approve. The lifecycle table
 * (`package-lifecycle.ts`) says which step follows which; this module says who takes the step. The
 * services, the storage adapters (the DynamoDB vote condition is generated from `voteClauses`), the
 * route table's role gates, the choice of approvers (`selectionProblem` in `package-rules.ts`) and the
 * approvers screen read it; a workflow rule changes here, with its
 * tests. `approval-policy.test.ts` pins today's policy; `test/integration/vote-condition.test.ts` shows
 * the DynamoDB condition and `voteRefusal` accept and refuse the same votes.
 */

/** The parties a package names (the starter is the caller who starts a round). */
export interface PackageParties {
  initiator: { id: string };
  /**
   * who uploaded the package's resource: its firmware and, for a model, the metadata file that comes in
   * the same upload (pinned on the package at creation; for older packages read from the resource)
   */
  uploader?: { id: string };
}

/** Every approver role, in the product's order (spec §6). */
export const EVERY_ROLE = NON_ADMIN_ROLES;

/**
 * The policy this process runs: the one named by `APPROVAL_POLICY` (a stage's `approvalPolicy`), checked
 * at load, else the specification's (`approval-policies.ts`, docs/approval-policy.md, decision 338).
 * Every function below defaults to it; tests of the policy itself pass theirs explicitly.
 */
export const APPROVAL_POLICY: ApprovalPolicy = approvalPolicyNamed(approvalPolicyNameFromEnv());

/** The id a party of the package stands for (the starter only once someone starts the round). */
function partyId(party: Party, p: PackageParties, starterId?: string): string | undefined {
  switch (party) {
    case 'initiator':
      return p.initiator.id;
    case 'starter':
      return starterId;
    case 'uploader':
      return p.uploader?.id;
    default:
      return assertNever(party);
  }
}

/** The people a round keeps out: ids of its excluded parties (the starter only once someone started it). */
export function excludedIds(parties: readonly Party[], p: PackageParties, starterId?: string): string[] {
  const ids = parties.map((x) => partyId(x, p, starterId));
  return [...new Set(ids.filter((id): id is string => id !== undefined))];
}

/** Which of `parties` keeps `userId` out (the first the policy lists), or null when none does. */
export function exclusionOf(
  parties: readonly Party[],
  p: PackageParties,
  userId: string,
  starterId?: string,
): Party | null {
  return parties.find((x) => partyId(x, p, starterId) === userId) ?? null;
}

/** The minimum number of approver roles of a round for a package type. */
export function minRolesOf(
  round: RoundName,
  type: PackageType,
  policy: ApprovalPolicy = APPROVAL_POLICY,
): number {
  return policy.rounds[round].minRoles[type];
}

/** Whether a package has a signer chosen in this round. */
export function needsSigner(
  round: RoundName,
  p: { signed: boolean },
  policy: ApprovalPolicy = APPROVAL_POLICY,
): boolean {
  return p.signed && policy.signer.round === round;
}

export interface Candidate {
  id: string;
  userRole: Role;
}

/** Who may sign a package: candidates holding the signer role, none of the excluded. */
export function signerCandidates<C extends Candidate>(
  p: PackageParties,
  candidates: readonly C[],
  policy: ApprovalPolicy = APPROVAL_POLICY,
): C[] {
  const excluded = excludedIds(policy.signer.excluded, p);
  return candidates.filter((c) => c.userRole === policy.signer.role && !excluded.includes(c.id));
}

/** The roles that approve in a round for a package type. */
export function approverRoles(
  round: RoundName,
  type: PackageType,
  policy: ApprovalPolicy = APPROVAL_POLICY,
): readonly NonAdminRole[] {
  return policy.rounds[round].roles[type];
}

/**
 * `chosen` (approvers, each with the role it was chosen for: `roleOf`) in an order the round accepts:
 * each after every chosen approver of the roles it approves after, otherwise as given. Whoever approves
 * a whole round (test kits, scripts, the demo tour) approves in this order, so a policy change needs no
 * change there.
 */
export function approvalOrder<E>(
  chosen: readonly E[],
  roleOf: (e: E) => string,
  round: RoundName = 'approval',
  policy: ApprovalPolicy = APPROVAL_POLICY,
): E[] {
  const after = policy.rounds[round].approvesAfter as Readonly<Record<string, readonly string[] | undefined>>;
  const left = [...chosen];
  const out: E[] = [];
  while (left.length > 0) {
    const waits = (e: E) => left.some((o) => o !== e && (after[roleOf(e)] ?? []).includes(roleOf(o)));
    const i = left.findIndex((e) => !waits(e));
    // a cycle in the order would let nobody approve; keep the rest as given rather than loop
    out.push(...left.splice(i < 0 ? 0 : i, i < 0 ? left.length : 1));
  }
  return out;
}

// ---- votes ---------------------------------------------------------------------------------------

/** Why a vote or rejection in a round is refused. */
export type VoteRefusal = 'notFound' | 'notAssigned' | 'alreadyDecided' | 'notWaiting' | 'notYourTurn';

/** A decision in a round: approving waits for its turn, rejecting does not. */
export type Decision = 'approve' | 'reject';

/** One chosen approver's entry as a vote reads it (`role`: the role they were chosen for). */
export interface VoteEntry {
  approved: boolean;
  rejected: boolean;
  role?: string;
}

/** The parts of a package a vote reads. */
export interface VoteState {
  status: string;
  approvers?: Record<string, VoteEntry>;
  deliveryApprovers?: Record<string, VoteEntry>;
}

/** The chosen approvers (ids) whose approval the user's approval waits for in the round. */
export function awaitedApprovers(
  p: VoteState,
  userId: string,
  round: VotingRound,
  policy: ApprovalPolicy = APPROVAL_POLICY,
): string[] {
  const list = p[round.list] ?? {};
  const role = list[userId]?.role;
  const before: readonly string[] =
    (role && policy.rounds[round.name].approvesAfter[role as NonAdminRole]) || [];
  if (before.length === 0) return [];
  return Object.entries(list)
    .filter(([id, e]) => id !== userId && e.role !== undefined && before.includes(e.role))
    .map(([id]) => id);
}

/**
 * Whether the user may decide in the round now: null when they may (chosen, undecided, the package
 * waiting in the round and, to approve, every approver before them in the policy's order approved),
 * else why not, in the order a caller is told (missing package first).
 */
export function voteRefusal(
  p: VoteState | null | undefined,
  userId: string,
  round: VotingRound,
  decision: Decision = 'approve',
  policy: ApprovalPolicy = APPROVAL_POLICY,
): VoteRefusal | null {
  if (!p) return 'notFound';
  const entry = p[round.list]?.[userId];
  if (!entry) return 'notAssigned';
  if (entry.approved || entry.rejected) return 'alreadyDecided';
  if (p.status !== round.waiting) return 'notWaiting';
  if (decision === 'approve') {
    const list = p[round.list] ?? {};
    if (awaitedApprovers(p, userId, round, policy).some((id) => !list[id]?.approved)) return 'notYourTurn';
  }
  return null;
}

/**
 * The condition of a vote as data, for a storage adapter to render (the DynamoDB adapter makes its
 * ConditionExpression of it): the package waits in the round, the voter's entry exists undecided, and
 * each awaited approver approved. `p` (the package as last read) is needed only when the round has an
 * order; the chosen approvers of a round do not change while it runs.
 */
export type VoteClause =
  | { readonly kind: 'statusIs'; readonly status: string }
  | { readonly kind: 'undecided'; readonly list: VotingRound['list']; readonly userId: string }
  | { readonly kind: 'approved'; readonly list: VotingRound['list']; readonly userId: string };

export function voteClauses(
  userId: string,
  round: VotingRound,
  decision: Decision,
  p?: VoteState | null,
  policy: ApprovalPolicy = APPROVAL_POLICY,
): VoteClause[] {
  const clauses: VoteClause[] = [
    { kind: 'statusIs', status: round.waiting },
    { kind: 'undecided', list: round.list, userId },
  ];
  if (decision === 'approve' && p)
    for (const id of awaitedApprovers(p, userId, round, policy))
      clauses.push({ kind: 'approved', list: round.list, userId: id });
  return clauses;
}

/** Whether a round's vote condition depends on the package's chosen approvers (the round has an order). */
export function voteNeedsState(round: RoundName, policy: ApprovalPolicy = APPROVAL_POLICY): boolean {
  return Object.keys(policy.rounds[round].approvesAfter).length > 0;
}

// ---- turns ---------------------------------------------------------------------------------------

/** The roles (codes, in the product's order) whose approvers the user's approval still waits for. */
export function rolesAwaited(
  p: VoteState,
  userId: string,
  round: VotingRound,
  policy: ApprovalPolicy = APPROVAL_POLICY,
): NonAdminRole[] {
  const list = p[round.list] ?? {};
  const roles = new Set(
    awaitedApprovers(p, userId, round, policy)
      .filter((id) => !list[id]?.approved)
      .map((id) => list[id]?.role),
  );
  return NON_ADMIN_ROLES.filter((r) => roles.has(r));
}

/**
 * The undecided approvers whose turn the approval of `voterId` (already counted in `p`) opened: they
 * waited for the voter and now wait for nobody. They are mailed in the vote's commit, so exactly once.
 */
export function turnsOpenedBy(
  p: VoteState,
  voterId: string,
  round: VotingRound,
  policy: ApprovalPolicy = APPROVAL_POLICY,
): string[] {
  const list = p[round.list] ?? {};
  return Object.entries(list)
    .filter(
      ([id, e]) =>
        id !== voterId &&
        !e.approved &&
        !e.rejected &&
        awaitedApprovers(p, id, round, policy).includes(voterId) &&
        rolesAwaited(p, id, round, policy).length === 0,
    )
    .map(([id]) => id);
}
