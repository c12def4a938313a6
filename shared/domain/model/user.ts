import type { LinkedBy } from '../company-sign-on';
import type { DeletionProposalView } from '../deletion-proposals';
import type { RoleStatus } from '../identity';
import type { Role } from '../roles';

/** A revocation of a granted role one admin proposed, as the admin list shows it. */
export interface RevocationProposalView extends DeletionProposalView {
  role: Role;
}

interface PersonRef {
  id: string;
  name: string;
  email: string;
}

/**
 * What the portal tells about a user (never the hash): the API sends it as JSON text in `user` (spec §3),
 * its zod schema (shared/api/contracts/user.ts) is checked against this type both ways.
 */
export interface PublicUser {
  id: string;
  name: string;
  email: string;
  userRole: Role;
  /** GRANTED: the role holds authority; REQUESTED: waits for an admin; REFUSED: an admin said no */
  roleStatus?: RoleStatus;
  /** the role waiting for an admin's decision (only while REQUESTED) */
  requestedRole?: Role;
  /** a new address waiting for its confirmation link; `email` stays the login until then */
  pendingEmail?: string;
  /** in the admin list: whether the account confirmed its address */
  emailConfirmed?: boolean;
  /** in the admin list: how many passkeys the account signs in and signs with (decision 322) */
  passkeys?: number;
  /** in the admin list: a grant one admin proposed, waiting for a second admin (decision 180) */
  roleProposal?: { role: Role; proposedBy: PersonRef; proposedAt: string; expiresAt: string };
  /** in the admin list: the account's deletion one admin proposed, waiting for a second (decision 336) */
  deletionProposal?: DeletionProposalView;
  /** in the admin list: a revocation of the role one admin proposed, waiting for a second (decision 357) */
  revocationProposal?: RevocationProposalView;
  /** the company identity that signs in as this account (company sign-on, decision 315) */
  companyIdentity?: { email: string; subject: string; linkedAt: string; linkedBy: LinkedBy };
  /** the account has no portal password: it signs in (and confirms signatures) at the company only */
  passwordless?: true;
  /** in the admin list: a company identity asking to be linked to this account (two admins decide) */
  companyLinkRequest?: { email: string; subject: string; requestedAt: string; proposedBy?: PersonRef };
}
