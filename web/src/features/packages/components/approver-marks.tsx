import type { ApproverEntry } from '@shared/api/contracts/packages';
import { roleLabel } from '@shared/domain/roles';
import { formatUtc } from './package-fields';

function Mark({ entry }: { entry: ApproverEntry }) {
  if (entry.rejected)
    return (
      <span className="frp-mark frp-mark--rejected" role="img" aria-label="Rejected">
        ✕
      </span>
    );
  if (entry.approved)
    return (
      <span className="frp-mark frp-mark--approved" role="img" aria-label="Approved">
        ✓
      </span>
    );
  return (
    <span className="frp-mark frp-mark--waiting" role="img" aria-label="Not decided yet">
      …
    </span>
  );
}

/**
 * Spec §2.9: approvers with approved and rejected marks (and the rejection note of whoever rejected);
 * the delivery-in-progress page lists each delivery approver with an approved mark.
 */
export function ApproverMarks({
  entries,
  label,
  you,
}: {
  entries: readonly ApproverEntry[];
  label: string;
  /** the signed-in user's id, marked '(you)' */
  you?: string;
}) {
  if (entries.length === 0) return <p className="frp-muted">No approvers were chosen yet.</p>;
  return (
    <ul className="frp-approvers" aria-label={label}>
      {entries.map((entry) => (
        <li key={entry.user.id} data-testid={`approver-${entry.user.id}`}>
          <Mark entry={entry} />
          <span>
            <strong>{entry.user.name}</strong>
            {entry.user.id === you ? <span className="frp-you"> (you)</span> : null}
            <br />
            <span className="frp-muted">{roleLabel(entry.role)}</span>
          </span>
          <span className="frp-muted">{entry.user.email}</span>
          <span className="frp-muted frp-approvers__state">
            {entry.rejected ? 'Rejected' : entry.approved ? 'Approved' : 'Waiting'}
            {entry.decidedAt ? ` ${formatUtc(entry.decidedAt)}` : ''}
          </span>
          {entry.rejected && entry.rejectionNote ? (
            <span className="frp-approvers__note">
              Reason: <q>{entry.rejectionNote}</q>
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
