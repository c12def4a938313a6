import { MSG } from '../messages';
import {
  APPROVAL_POLICY,
  type ApprovalPolicy,
  type Candidate,
  EVERY_ROLE,
  excludedIds,
  exclusionOf,
  type PackageParties,
  type Party,
} from './approval-policy';
import { assertNever } from './assert-never';
import type { ApproverEntry, Package, PackageStatus, PackageType } from './model/package';
import type { Stage } from './model/resource';
import { PACKAGE_ERR } from './package-texts';
import { PACKAGE_TYPE_LABELS } from './package-type-label';
import { NON_ADMIN_ROLES, type NonAdminRole, type Role, roleLabel } from './roles';
import type { RoundName } from './voting-rounds';

export type { Candidate } from './approval-policy';

/** Package type from the resource's stage and the sign flag (spec §3). */
export function packageTypeOf(stage: Stage, signed: boolean): PackageType {
  return `${stage}_${signed ? 'SIGNED' : 'UNSIGNED'}` as PackageType;
}

export const isSignedType = (t: PackageType): boolean => t.endsWith('_SIGNED');
export const stageOfType = (t: PackageType): Stage => (t.startsWith('DEV_') ? 'DEV' : 'RELEASE');

/**
 * Whether devices can accept the package once delivered (decision 193, docs/package-format.md §7 rule 1):
 * a release package must be signed. The deliver call refuses the others (409) and the SPA does not offer them.
 */
export const isDeliverableType = (p: { type: PackageType; signed: boolean }): boolean =>
  p.signed && isSignedType(p.type);

/** A signed release package needs at least this many approver roles (spec §5, §9; the approval policy's). */
export const MIN_SIGNED_RELEASE_ROLES: number = APPROVAL_POLICY.rounds.approval.minRoles.RELEASE_SIGNED;

/** Label of a row in the delivery list (spec §4.3); null when no label applies. */
export function deliveryLabel(p: Pick<Package, 'type' | 'deliveryApprovers'>): string | null {
  if (p.type.startsWith('DEV_')) return null;
  const list = p.deliveryApprovers ?? [];
  if (list.length === 0) return null;
  if (list.some((a) => a.rejected)) return 'Package rejected';
  const approved = list.filter((a) => a.approved).length;
  if (approved < list.length) return `Approval pending: ${approved}/${list.length}`;
  return null;
}

/** Derived list status of spec §4.3: dev, not started, rejected (checked first) or pending. */
export function listStatus(
  p: Pick<Package, 'type' | 'deliveryApprovers'>,
): 'DEVELOPMENT' | 'NOT_STARTED' | 'REJECTED' | 'PENDING' | 'APPROVED' {
  if (p.type.startsWith('DEV_')) return 'DEVELOPMENT';
  const list = p.deliveryApprovers ?? [];
  if (list.length === 0) return 'NOT_STARTED';
  if (list.some((a) => a.rejected)) return 'REJECTED';
  if (list.some((a) => !a.approved)) return 'PENDING';
  return 'APPROVED';
}

export interface Selection {
  role: string;
  id: string;
}

/** Words for a choice that a policy party keeps out; the initiator's rule when not given. */
const INITIATOR_EXCLUDED = 'You cannot choose yourself, or the package initiator, as an approver';

/**
 * Checks a choice of approvers (DESIGN §2): one user per role, each holding that role, none excluded
 * (the initiator; for deliveries also the deliverer; the uploader of its resource), a user for every
 * approving role (`roles`, by default all) that has candidates, and at least `requireMinRoles` such
 * roles (`shortfall` says so in words, by default the spec's). The problem in words, or null.
 */
export function checkApproverSelection(
  selection: readonly Selection[],
  candidates: readonly Candidate[],
  opts: {
    excluded: readonly string[];
    /** why an excluded user was refused (default: the initiator's rule) */
    excludedBecause?: (id: string) => string;
    requireMinRoles?: number;
    roles?: readonly NonAdminRole[];
    /** the words of too few roles with candidates (default: the spec's 'Not enough approvers in the system!') */
    shortfall?: (rolesWithCandidates: ReadonlySet<Role>) => string;
  },
): string | null {
  const roles: readonly Role[] = opts.roles ?? EVERY_ROLE;
  const eligible = candidates.filter((c) => !opts.excluded.includes(c.id) && roles.includes(c.userRole));
  const rolesWithCandidates = new Set(eligible.map((c) => c.userRole));
  if (opts.requireMinRoles && rolesWithCandidates.size < opts.requireMinRoles)
    return opts.shortfall ? opts.shortfall(rolesWithCandidates) : MSG.notEnoughApprovers;
  if (rolesWithCandidates.size === 0) return 'There are no approvers in the system';
  const seenRoles = new Set<string>();
  for (const s of selection) {
    if (!(NON_ADMIN_ROLES as readonly string[]).includes(s.role)) return `Unknown approver role ${s.role}`;
    if (!(roles as readonly string[]).includes(s.role))
      return `A ${roleLabel(s.role)} does not approve this package`;
    if (seenRoles.has(s.role)) return `Choose one approver per role (${s.role} was chosen twice)`;
    seenRoles.add(s.role);
    if (opts.excluded.includes(s.id)) return opts.excludedBecause?.(s.id) ?? INITIATOR_EXCLUDED;
    const c = eligible.find((x) => x.id === s.id);
    if (!c) return `User ${s.id} cannot approve: no such user`;
    if (c.userRole !== s.role) return `The chosen ${s.role} approver does not hold that role`;
  }
  const missing = [...rolesWithCandidates].filter((r) => !seenRoles.has(r));
  if (missing.length > 0) return `Choose an approver for every role: ${missing.join(', ')} missing`;
  return null;
}

/** The package as the choice of its approvers reads it: its type and its parties (the uploader with a name). */
export type ChoicePackage = { type: PackageType } & PackageParties & {
    uploader?: { id: string; name: string };
  };

/** Why `party` of package `p` may not be chosen (as an approver, a delivery approver or the signer). */
export function exclusionReason(party: Party, p: ChoicePackage): string {
  switch (party) {
    case 'initiator':
    case 'starter':
      return INITIATOR_EXCLUDED;
    case 'uploader':
      return PACKAGE_ERR.uploaderReviews(p.uploader?.name ?? 'The uploader');
    default:
      return assertNever(party);
  }
}

/**
 * The policy's minimum of approver roles for a round against the approving roles that have someone who
 * may approve (`withCandidates`): how far short it falls, or null when it does not.
 */
export function quorumShortfall(
  round: RoundName,
  type: PackageType,
  withCandidates: ReadonlySet<string>,
  policy: ApprovalPolicy = APPROVAL_POLICY,
): { needed: number; have: number; missing: NonAdminRole[] } | null {
  const listed = policy.rounds[round].roles[type];
  const needed = policy.rounds[round].minRoles[type];
  const have = listed.filter((r) => withCandidates.has(r)).length;
  if (have >= needed) return null;
  return { needed, have, missing: listed.filter((r) => !withCandidates.has(r)) };
}

/**
 * A round below the policy's minimum in words (decision 332): the spec's 'Not enough approvers in the
 * system!' first where the spec asks for it (a signed release package's approval), then how many roles
 * are needed, how many have someone who may approve, and which roles an admin could grant.
 */
export function quorumProblem(
  round: RoundName,
  type: PackageType,
  s: { needed: number; have: number; missing: readonly NonAdminRole[] },
): string {
  const which = round === 'delivery' ? 'Its delivery' : `This package (${PACKAGE_TYPE_LABELS[type]})`;
  const grant = s.missing.map(roleLabel);
  const roles = grant.length > 1 ? `${grant.slice(0, -1).join(', ')} or ${grant.at(-1)}` : (grant[0] ?? '');
  const detail = `${which} needs at least ${s.needed} approver roles; only ${s.have} ${
    s.have === 1 ? 'has' : 'have'
  } someone who may approve: ask an admin to grant the ${roles} role to a colleague who may approve it.`;
  return round === 'approval' && type === 'RELEASE_SIGNED' ? `${MSG.notEnoughApprovers} ${detail}` : detail;
}

/**
 * The screen's warning for a round whose approving roles with someone who may approve (`withCandidates`)
 * fall below the policy's minimum (the API refuses such a choice with the same words), or null.
 */
export function quorumWarning(
  round: RoundName,
  type: PackageType,
  withCandidates: ReadonlySet<string>,
  policy: ApprovalPolicy = APPROVAL_POLICY,
): string | null {
  const s = quorumShortfall(round, type, withCandidates, policy);
  return s ? quorumProblem(round, type, s) : null;
}

/**
 * A round's choice checked against the policy: the package's type gives the roles and the minimum,
 * the round its excluded parties (`starterId`: who starts it).
 */
export function selectionProblem(
  round: RoundName,
  p: ChoicePackage,
  selection: readonly Selection[],
  candidates: readonly Candidate[],
  starterId: string,
  policy: ApprovalPolicy = APPROVAL_POLICY,
): string | null {
  const rp = policy.rounds[round];
  return checkApproverSelection(selection, candidates, {
    excluded: excludedIds(rp.excluded, p, starterId),
    excludedBecause: (id) => exclusionReason(exclusionOf(rp.excluded, p, id, starterId) ?? 'initiator', p),
    requireMinRoles: rp.minRoles[p.type],
    roles: rp.roles[p.type],
    shortfall: (withCandidates) =>
      quorumWarning(round, p.type, withCandidates, policy) ?? MSG.notEnoughApprovers,
  });
}

/**
 * Why the chosen signer may not sign: a party the policy keeps out of signing (the initiator, the
 * uploader), or null.
 */
export function signerExclusion(
  p: ChoicePackage,
  signerId: string,
  policy: ApprovalPolicy = APPROVAL_POLICY,
): string | null {
  const party = exclusionOf(policy.signer.excluded, p, signerId);
  return party ? exclusionReason(party, p) : null;
}

/** Stored approvers (a map by user id, so each vote is one atomic update) as the spec's ordered list. */
export function approverList(map: Record<string, ApproverEntry> | undefined): ApproverEntry[] {
  const order = (r: Role) => (NON_ADMIN_ROLES as readonly Role[]).indexOf(r as NonAdminRole);
  return Object.values(map ?? {}).sort((a, b) => order(a.role) - order(b.role));
}

/** States from which a release engineer may (re-)deliver (DESIGN §2). */
export const DELIVERABLE: readonly PackageStatus[] = ['APPROVED', 'SIGNED', 'DELIVERY_REJECTED'];
