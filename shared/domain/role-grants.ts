import { type RoleStatus, roleStatusOf } from './identity';
import type { Role } from './roles';
import { roleLabel } from './roles';

/**
 * Two admins for every grant (decision 180): granting a role is a proposal by one admin and takes
 * effect only when a second, different admin confirms it. An admin never confirms their own proposal, never
 * one for themselves; a proposal lapses after ROLE_PROPOSAL_DAYS. Refusals and revocations stay immediate.
 */
export const ROLE_PROPOSAL_DAYS = 7;

/** A grant proposed by one admin, stored on the user's record until confirmed, refused or lapsed. */
export interface RoleProposal {
  /** the role proposed: the one the user asked for when the admin proposed it */
  role: Role;
  proposedById: string;
  proposedByName: string;
  proposedByEmail: string;
  /** ISO 8601, UTC */
  proposedAt: string;
}

/** What a proposal looks like to the admins' list (`GET /admin/users`). */
export interface RoleProposalView {
  role: Role;
  proposedBy: { id: string; name: string; email: string };
  proposedAt: string;
  expiresAt: string;
}

/** What one admin's grant does to one user. */
export type GrantOutcome = 'PROPOSED' | 'GRANTED';

export type GrantStep =
  | { kind: 'PROPOSE' }
  | { kind: 'CONFIRM'; proposal: RoleProposal }
  | { kind: 'REFUSED'; statusCode: 403 | 409; reason: string };

export interface GrantSubject {
  id: string;
  email: string;
  userRole: Role;
  roleStatus?: RoleStatus;
  roleProposal?: RoleProposal;
}

/** When a proposal made at `proposedAt` lapses. */
export function proposalExpiresAt(proposedAt: string): string {
  return new Date(Date.parse(proposedAt) + ROLE_PROPOSAL_DAYS * 24 * 60 * 60 * 1000).toISOString();
}

/**
 * The proposal that still counts: for the role the user asks for now (a request changed since names
 * another role) and not lapsed. Anything else is as if none were pending.
 */
export function liveProposal(u: GrantSubject, now: Date): RoleProposal | undefined {
  const p = u.roleProposal;
  if (!p || p.role !== u.userRole || roleStatusOf(u) === 'GRANTED') return undefined;
  return Date.parse(proposalExpiresAt(p.proposedAt)) > now.getTime() ? p : undefined;
}

export function proposalView(u: GrantSubject, now: Date): RoleProposalView | undefined {
  const p = liveProposal(u, now);
  return p
    ? {
        role: p.role,
        proposedBy: { id: p.proposedById, name: p.proposedByName, email: p.proposedByEmail },
        proposedAt: p.proposedAt,
        expiresAt: proposalExpiresAt(p.proposedAt),
      }
    : undefined;
}

/** Why an admin's own pending proposal cannot be confirmed by them. */
export const ownProposalReason = (u: Pick<GrantSubject, 'email' | 'userRole'>) =>
  `${u.email}: you proposed the role ${roleLabel(u.userRole)}; a second administrator must confirm it`;

/**
 * The rule: what `admin` granting `user` does at `now`. A proposal by another admin is confirmed; the
 * admin's own is refused (403); none (or a lapsed one, or one for a role the user no longer asks for) makes
 * this a new proposal. Granting oneself, or a role already granted, is refused.
 */
export function grantStep(admin: { id: string }, user: GrantSubject, now: Date): GrantStep {
  if (user.id === admin.id)
    return { kind: 'REFUSED', statusCode: 403, reason: `${user.email}: you cannot grant your own role` };
  if (roleStatusOf(user) === 'GRANTED')
    return { kind: 'REFUSED', statusCode: 409, reason: `${user.email}: the role is already granted` };
  if (roleStatusOf(user) === 'NONE')
    return { kind: 'REFUSED', statusCode: 409, reason: `${user.email}: no role was requested yet` };
  const proposal = liveProposal(user, now);
  if (!proposal) return { kind: 'PROPOSE' };
  if (proposal.proposedById === admin.id)
    return { kind: 'REFUSED', statusCode: 403, reason: ownProposalReason(user) };
  return { kind: 'CONFIRM', proposal };
}

/** What a grant signature means, per step (the dialog shows them; the audit trail records the one taken). */
export const ROLE_GRANT_MEANINGS = {
  proposeRole:
    'I propose granting this account the role shown: it takes effect only once a second administrator confirms it',
  confirmRole:
    'I confirm the grant of the role shown, proposed by another administrator: the account holds it from now on',
} as const;
export type RoleGrantAction = keyof typeof ROLE_GRANT_MEANINGS;
