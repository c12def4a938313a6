import type { DeletionProposalView } from '@shared/domain/deletion-proposals';
import { utcMinute } from '@shared/domain/package-deletion';
import { useSession } from '@/lib/session/session-store';

/**
 * A deletion that takes two admins (decision 336: an administrator's account, a delivered package's
 * record) as the admin lists and the delete dialog show it: who proposed it, when and why; to its proposer,
 * that it waits for a second admin.
 */
export function deletionProposalText(
  p: DeletionProposalView,
  me: string | undefined,
  /** the account proposed for deletion, when it is one: its owner never confirms it */
  subjectId?: string,
): string {
  if (subjectId !== undefined && subjectId === me)
    return `Deletion of your account proposed by ${p.proposedBy.name} (${p.proposedBy.email}) on ${utcMinute(p.proposedAt)}: another admin decides`;
  if (p.proposedBy.id === me)
    return `Deletion proposed by you on ${utcMinute(p.proposedAt)}: waiting for a second admin to confirm it`;
  return `Deletion proposed by ${p.proposedBy.name} (${p.proposedBy.email}) on ${utcMinute(p.proposedAt)}: waits for your confirmation`;
}

/** Under a row's state: the pending deletion, with the proposer's reason quoted. */
export function DeletionProposalNote({
  proposal,
  subjectId,
}: {
  proposal?: DeletionProposalView;
  subjectId?: string;
}) {
  const me = useSession().user?.id;
  if (!proposal) return null;
  return (
    <span className="frp-deletion-proposal">
      <span>{deletionProposalText(proposal, me, subjectId)}</span>
      <span className="frp-deletion-proposal__reason">Reason: “{proposal.reason}”</span>
    </span>
  );
}
