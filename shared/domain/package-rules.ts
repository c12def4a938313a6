import type { ApproverEntry, Package, PackageStatus, PackageType } from '../api/contracts/packages';
import type { Stage } from '../api/contracts/resources';
import { MSG } from '../messages';
import {
  APPROVAL_POLICY,
  type ApprovalPolicy,
  type Candidate,
  EVERY_ROLE,
  excludedIds,
} from './approval-policy';
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
export const MIN_SIGNED_RELEASE_ROLES: number = APPROVAL_POLICY.rounds.approval.minRoles.RELEASE_SIGNED ?? 0;

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

/**
 * Checks a choice of approvers (DESIGN §2): one user per role, each holding that role, none excluded
 * (the initiator; for deliveries also the deliverer), a user for every approving role (`roles`, by
 * default all) that has candidates, and at least `requireMinRoles` such roles. The problem in words, or null.
 */
export function checkApproverSelection(
  selection: readonly Selection[],
  candidates: readonly Candidate[],
  opts: { excluded: readonly string[]; requireMinRoles?: number; roles?: readonly NonAdminRole[] },
): string | null {
  const roles: readonly Role[] = opts.roles ?? EVERY_ROLE;
  const eligible = candidates.filter((c) => !opts.excluded.includes(c.id) && roles.includes(c.userRole));
  const rolesWithCandidates = new Set(eligible.map((c) => c.userRole));
  if (opts.requireMinRoles && rolesWithCandidates.size < opts.requireMinRoles) return MSG.notEnoughApprovers;
  if (rolesWithCandidates.size === 0) return 'There are no approvers in the system';
  const seenRoles = new Set<string>();
  for (const s of selection) {
    if (!(NON_ADMIN_ROLES as readonly string[]).includes(s.role)) return `Unknown approver role ${s.role}`;
    if (!(roles as readonly string[]).includes(s.role))
      return `A ${roleLabel(s.role)} does not approve this package`;
    if (seenRoles.has(s.role)) return `Choose one approver per role (${s.role} was chosen twice)`;
    seenRoles.add(s.role);
    if (opts.excluded.includes(s.id))
      return 'You cannot choose yourself, or the package initiator, as an approver';
    const c = eligible.find((x) => x.id === s.id);
    if (!c) return `User ${s.id} cannot approve: no such user`;
    if (c.userRole !== s.role) return `The chosen ${s.role} approver does not hold that role`;
  }
  const missing = [...rolesWithCandidates].filter((r) => !seenRoles.has(r));
  if (missing.length > 0) return `Choose an approver for every role: ${missing.join(', ')} missing`;
  return null;
}

/**
 * A round's choice checked against the policy: the package's type gives the roles and the minimum,
 * the round its excluded parties (`starterId`: who starts it).
 */
export function selectionProblem(
  round: RoundName,
  p: { type: PackageType; initiator: { id: string } },
  selection: readonly Selection[],
  candidates: readonly Candidate[],
  starterId: string,
  policy: ApprovalPolicy = APPROVAL_POLICY,
): string | null {
  const rp = policy.rounds[round];
  return checkApproverSelection(selection, candidates, {
    excluded: excludedIds(rp.excluded, p, starterId),
    requireMinRoles: rp.minRoles[p.type],
    roles: rp.roles[p.type],
  });
}

/** Stored approvers (a map by user id, so each vote is one atomic update) as the spec's ordered list. */
export function approverList(map: Record<string, ApproverEntry> | undefined): ApproverEntry[] {
  const order = (r: Role) => (NON_ADMIN_ROLES as readonly Role[]).indexOf(r as NonAdminRole);
  return Object.values(map ?? {}).sort((a, b) => order(a.role) - order(b.role));
}

/** States from which a release engineer may (re-)deliver (DESIGN §2). */
export const DELIVERABLE: readonly PackageStatus[] = ['APPROVED', 'SIGNED', 'DELIVERY_REJECTED'];
