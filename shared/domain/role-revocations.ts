import type { ApprovalPolicy } from './approval-policy-shape';
import { type RoleStatus, roleStatusOf } from './identity';
import { type NonAdminRole, type Role, roleLabel } from './roles';
import type { SignatureMethod } from './signature-meanings';

/**
 * Symmetric governance (docs/decisions/357-no-quorum-shrinks-by-one-admin-alone.md): refusing a requested
 * role, revoking a granted one and deleting an account are electronic signatures with a reason. One signed
 * admin suffices unless the change would leave a role the approval policy needs without a holder (or
 * removes an administrator: decision 336); then one admin proposes and a second, different admin confirms,
 * as for grants.
 */

/** How long a revocation proposal waits for a second admin (a deletion proposal waits as long). */
export const REVOCATION_PROPOSAL_DAYS = 3;

/** The fewest holders a role the policy needs keeps after one admin's revocation or deletion. */
export const MIN_HOLDERS_PER_NEEDED_ROLE = 1;

/** A revocation one admin proposed, kept on the account until confirmed or lapsed. */
export interface RevocationProposal {
  role: Role;
  proposedById: string;
  proposedByName: string;
  proposedByEmail: string;
  /** ISO 8601, UTC */
  proposedAt: string;
  reason: string;
}

/** What the admins' list shows of a live revocation proposal. */
export interface RevocationProposalView {
  role: Role;
  proposedBy: { id: string; name: string; email: string };
  proposedAt: string;
  expiresAt: string;
  reason: string;
}

export const revocationExpiresAt = (proposedAt: string): string =>
  new Date(Date.parse(proposedAt) + REVOCATION_PROPOSAL_DAYS * 24 * 60 * 60 * 1000).toISOString();

interface Holder {
  id: string;
  userRole: Role;
  roleStatus?: RoleStatus;
  revocationProposal?: RevocationProposal;
}

/** The proposal that still counts: for the role held now, still granted, not lapsed. */
export function liveRevocation(u: Holder, now: Date): RevocationProposal | undefined {
  const p = u.revocationProposal;
  if (!p || p.role !== u.userRole || roleStatusOf(u) !== 'GRANTED') return undefined;
  return Date.parse(revocationExpiresAt(p.proposedAt)) > now.getTime() ? p : undefined;
}

export function revocationView(u: Holder, now: Date): RevocationProposalView | undefined {
  const p = liveRevocation(u, now);
  return p
    ? {
        role: p.role,
        proposedBy: { id: p.proposedById, name: p.proposedByName, email: p.proposedByEmail },
        proposedAt: p.proposedAt,
        expiresAt: revocationExpiresAt(p.proposedAt),
        reason: p.reason,
      }
    : undefined;
}

/** The roles the policy needs someone to hold: every round's roles of every package type, signer, deliverer. */
export function rolesThePolicyNeeds(policy: ApprovalPolicy): Set<NonAdminRole> {
  const needed = new Set<NonAdminRole>([policy.signer.role, policy.deliverer.role]);
  for (const round of Object.values(policy.rounds))
    for (const roles of Object.values(round.roles)) for (const r of roles) needed.add(r);
  return needed;
}

/**
 * Which of `leaving` (accounts whose role authority one call ends: a revocation or a deletion) take a
 * second admin, each with the reason in words. `holders` are every account that holds its role now
 * (granted, confirmed address). An administrator always does; an account whose role the policy needs does
 * when the call leaves that role with fewer than MIN_HOLDERS_PER_NEEDED_ROLE holders.
 */
export function secondAdminNeeded(
  policy: ApprovalPolicy,
  holders: readonly Pick<Holder, 'id' | 'userRole'>[],
  leaving: readonly (Pick<Holder, 'id' | 'userRole'> & { holds: boolean })[],
): Map<string, string> {
  const needed = rolesThePolicyNeeds(policy);
  const gone = new Set(leaving.filter((u) => u.holds).map((u) => u.id));
  const out = new Map<string, string>();
  for (const u of leaving) {
    if (u.userRole === 'ADMIN') {
      out.set(u.id, 'an administrator account');
      continue;
    }
    if (!u.holds || !needed.has(u.userRole)) continue;
    const left = holders.filter((h) => h.userRole === u.userRole && !gone.has(h.id)).length;
    if (left < MIN_HOLDERS_PER_NEEDED_ROLE)
      out.set(
        u.id,
        `it leaves ${left === 0 ? 'no one' : `only ${left}`} holding ${roleLabel(u.userRole)}, a role the approval policy needs`,
      );
  }
  return out;
}

export type RevocationStep =
  | { kind: 'NOW' }
  | { kind: 'PROPOSE'; why: string }
  | { kind: 'CONFIRM'; proposal: RevocationProposal }
  | { kind: 'OWN_PROPOSAL'; proposal: RevocationProposal };

/**
 * What `admin` refusing `user`'s role does at `now`: a proposal by another admin is confirmed; the
 * admin's own waits (refused); otherwise it takes a second admin when `why` says so, else it is done now.
 */
export function revocationStep(
  admin: { id: string },
  user: Holder,
  now: Date,
  why: string | undefined,
): RevocationStep {
  const p = liveRevocation(user, now);
  if (p)
    return p.proposedById === admin.id
      ? { kind: 'OWN_PROPOSAL', proposal: p }
      : { kind: 'CONFIRM', proposal: p };
  return why ? { kind: 'PROPOSE', why } : { kind: 'NOW' };
}

/** What each governance signature means (the dialog shows it; the audit trail records the one taken). */
export const GOVERNANCE_MEANINGS = {
  refuseRole:
    'I refuse or revoke the role shown, for the reason I give: the account holds no role authority from now on',
  proposeRevocation:
    'I propose revoking the role shown, for the reason I give: it is revoked only once a second administrator confirms it',
  confirmRevocation:
    'I confirm the revocation proposed by another administrator, for the reason given: the account holds no role authority from now on',
  deleteAccount: 'I delete the account shown, for the reason I give: it is deleted for good',
} as const;
export type GovernanceAction = keyof typeof GOVERNANCE_MEANINGS;

/** One governance signature as the audit trail records it (the shape of package signatures). */
export function governanceSignature(
  action: GovernanceAction,
  signer: { name: string; userRole: string },
  signedAt: string,
  authenticatedBy: SignatureMethod,
) {
  return {
    action,
    meaning: GOVERNANCE_MEANINGS[action],
    printedName: signer.name,
    role: signer.userRole,
    roleLabel: roleLabel(signer.userRole),
    signedAt,
    authenticatedBy,
  };
}

/** The texts of refusals, revocations and deletions (the API's answers and errors). */
export const GOVERNANCE_TEXT = {
  reasonRequired: 'reason is required: say why the role is refused or revoked (the person reads it by mail)',
  deletionReasonRequired: 'reason is required: say why the account is deleted (the person reads it by mail)',
  signatureNeeded:
    'Deleting an account is an electronic signature: send { "ids": [...], "password": "...", "reason": "..." } with your password and the reason. Nothing was deleted.',
  ownRevocation: (emails: readonly string[]) =>
    `You proposed revoking the role of ${emails.join(', ')}: a second administrator must confirm it. Nothing changed.`,
} as const;
