import { detail, type Findings } from './audit-completeness-core';
import { deletionExpiresAt } from './deletion-proposals';

/**
 * The two-admin deletions in the completeness check (decision 336): a pending proposal on an account or a
 * package has exactly one proposal event by its proposer, and a deletion that confirms a proposal follows a
 * proposal event by that proposer, who is not the confirming admin.
 */

/** The proposal a stored account or package carries, as far as the rule reads it. */
export interface ProposalState {
  proposedById: string;
  proposedAt: string;
}

/** A stored account or package with a pending deletion proposal: one proposal event made it. */
export function checkPendingDeletion(
  f: Findings,
  subject: string,
  proposedAction: string,
  p: ProposalState | undefined,
): void {
  if (!p) return;
  const expiresAt = deletionExpiresAt(p.proposedAt);
  const matching = f
    .events(subject)
    .of(proposedAction)
    .filter((e) => e.actorId === p.proposedById && detail(e, 'expiresAt') === expiresAt);
  f.exactly(
    subject,
    proposedAction,
    matching.length,
    1,
    `${p.proposedById} proposed its deletion at ${p.proposedAt}`,
  );
}

/** A deletion that names the proposal it confirms: the proposal is on the record, by another admin. */
export function checkConfirmedDeletion(
  f: Findings,
  subject: string,
  proposedAction: string,
  deletedAction: string,
): void {
  const ev = f.events(subject);
  for (const d of ev.of(deletedAction)) {
    const proposer = detail(d, 'proposedBy');
    if (!proposer) continue;
    const proposal = ev.of(proposedAction).find((e) => e.seq < d.seq && e.actorId === proposer);
    if (!proposal)
      f.add(
        subject,
        'missing',
        `${deletedAction} (seq ${d.seq}) confirms a deletion proposed by ${proposer}, but the record has no ${proposedAction} by them before it`,
      );
    else if (proposer === d.actorId)
      f.add(
        subject,
        'mismatch',
        `the deletion was proposed and confirmed by the same administrator ${proposer}`,
      );
  }
}
