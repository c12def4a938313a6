import { roleLabel } from './roles';
import type { SignatureMethod } from './signature-meanings';

/**
 * Two admins delete what one admin must not delete alone (docs/decisions/336-two-admins-delete-an-admin-or-a-delivered-package.md):
 * an administrator's account, and a DELIVERED package's record with its artefacts. The first admin's signed
 * call records a proposal (with the reason); a second, different admin's identical signed call confirms it
 * and deletes, in the same commit as its event. A proposal lapses after DELETION_PROPOSAL_DAYS; nobody
 * confirms their own.
 */
export const DELETION_PROPOSAL_DAYS = 3;

/** A deletion one admin proposed, kept on the account or package until confirmed or lapsed. */
export interface DeletionProposal {
  proposedById: string;
  proposedByName: string;
  proposedByEmail: string;
  /** ISO 8601, UTC */
  proposedAt: string;
  reason: string;
}

/** What the admin lists show of a live proposal. */
export interface DeletionProposalView {
  proposedBy: { id: string; name: string; email: string };
  proposedAt: string;
  expiresAt: string;
  reason: string;
}

export const deletionExpiresAt = (proposedAt: string): string =>
  new Date(Date.parse(proposedAt) + DELETION_PROPOSAL_DAYS * 24 * 60 * 60 * 1000).toISOString();

/** The proposal that still counts (not lapsed), if any. */
export function liveDeletionProposal(
  subject: { deletionProposal?: DeletionProposal },
  now: Date,
): DeletionProposal | undefined {
  const p = subject.deletionProposal;
  return p && Date.parse(deletionExpiresAt(p.proposedAt)) > now.getTime() ? p : undefined;
}

export function deletionProposalView(
  subject: { deletionProposal?: DeletionProposal },
  now: Date,
): DeletionProposalView | undefined {
  const p = liveDeletionProposal(subject, now);
  return p
    ? {
        proposedBy: { id: p.proposedById, name: p.proposedByName, email: p.proposedByEmail },
        proposedAt: p.proposedAt,
        expiresAt: deletionExpiresAt(p.proposedAt),
        reason: p.reason,
      }
    : undefined;
}

export type DeletionStep =
  | { kind: 'PROPOSE' }
  | { kind: 'CONFIRM'; proposal: DeletionProposal }
  | { kind: 'OWN_PROPOSAL'; proposal: DeletionProposal };

/** What `admin`'s signed deletion does to a subject that takes two admins, at `now`. */
export function deletionStep(
  admin: { id: string },
  subject: { deletionProposal?: DeletionProposal },
  now: Date,
): DeletionStep {
  const proposal = liveDeletionProposal(subject, now);
  if (!proposal) return { kind: 'PROPOSE' };
  if (proposal.proposedById === admin.id) return { kind: 'OWN_PROPOSAL', proposal };
  return { kind: 'CONFIRM', proposal };
}

/** What the two signatures mean (shown in the dialog, recorded in the audit trail). */
export const DELETION_MEANINGS = {
  proposeDeletion:
    'I propose deleting what is shown, for the reason I give: it is deleted only once a second administrator confirms it',
  confirmDeletion:
    'I confirm the deletion proposed by another administrator, for the reason given: it is deleted for good',
} as const;
export type DeletionAction = keyof typeof DELETION_MEANINGS;

/** One step's signature as the audit trail records it (the shape of package signatures). */
export function deletionSignature(
  action: DeletionAction,
  signer: { name: string; userRole: string },
  signedAt: string,
  authenticatedBy: SignatureMethod,
) {
  return {
    action,
    meaning: DELETION_MEANINGS[action],
    printedName: signer.name,
    role: signer.userRole,
    roleLabel: roleLabel(signer.userRole),
    signedAt,
    authenticatedBy,
  };
}

/** The texts of the two-admin deletions (the API's answers and errors). */
export const DELETION_TEXT = {
  /** the 202 of a proposal */
  proposed: (names: readonly string[]) =>
    `Waiting for a second admin to confirm the deletion of ${names.map((n) => `'${n}'`).join(', ')}. Nothing is deleted until another administrator signs the same deletion (within ${DELETION_PROPOSAL_DAYS} days).`,
  /** the 409 of the proposer confirming their own proposal */
  ownProposal: (names: readonly string[]) =>
    `You proposed deleting ${names.map((n) => `'${n}'`).join(', ')}: a second administrator must confirm it. Nothing was deleted.`,
  /** the 400 of a plain id list naming what takes two admins */
  signatureNeeded: (what: string) =>
    `Deleting ${what} takes two administrators, each signing: send { "ids": [...], "password": "...", "reason": "..." } with your password and the reason. Nothing was deleted.`,
} as const;
