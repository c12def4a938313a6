import { Alert } from '@aws-amplify/ui-react';
import { roleLabel } from '@shared/domain/roles';
import { SIGNATURE_METHOD_LABELS, type SignatureMethod } from '@shared/domain/signature-meanings';
import { useMemo } from 'react';
import { type Column, DataTable } from '@/components/ui/data-table/data-table';
import { useApiQuery } from '@/hooks/use-api-query';
import { getHistory, type HistoryEvent } from '../api/history';
import { formatUtc } from './package-fields';

/** What each audit action means to a reader of the record. */
const ACTIONS: Record<string, string> = {
  PACKAGE_CREATED: 'Created',
  HEADER_EDITED: 'Header edited',
  DCC_ATTACHED: 'DCC attached',
  APPROVAL_REQUESTED: 'Sent for approval',
  APPROVED: 'Approved',
  FULLY_APPROVED: 'Fully approved',
  PACKAGE_GENERATED: 'Package generated',
  REJECTED: 'Rejected',
  SIGNED: 'Signed',
  SIGNING_REJECTED: 'Signing rejected',
  DELIVERY_STARTED: 'Delivery started',
  REDELIVERED: 'Re-delivered',
  DELIVERY_APPROVED: 'Delivery approved',
  DELIVERY_REJECTED: 'Delivery rejected',
  DELIVERED: 'Delivered',
  PACKAGE_DELETED: 'Deleted',
};

export const actionLabel = (action: string): string =>
  ACTIONS[action] ?? action.charAt(0) + action.slice(1).toLowerCase().replaceAll('_', ' ');

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** Which comparison a decision was taken on (decision 266), in words. */
function seenOf(d: Record<string, unknown>): string | undefined {
  const seen = d.changesSeen as
    | { previousPackageId?: string; previousPackageName?: string; seenOnPage?: boolean }
    | undefined;
  if (!seen || typeof seen !== 'object') return undefined;
  const against =
    seen.previousPackageId === 'none'
      ? 'no earlier approved package'
      : (seen.previousPackageName ?? seen.previousPackageId);
  return seen.seenOnPage
    ? `Changes seen: compared with ${against}`
    : `Decided without the comparison on screen (then against ${against})`;
}

/** How the signer was confirmed at a signed decision (decision 322): password, passkey, company sign-in. */
function methodOf(d: Record<string, unknown>): string | undefined {
  const method =
    d.signatureMethod ?? (d.signature as { authenticatedBy?: unknown } | undefined)?.authenticatedBy;
  return typeof method === 'string' && method in SIGNATURE_METHOD_LABELS
    ? `Signed with: ${SIGNATURE_METHOD_LABELS[method as SignatureMethod]}`
    : undefined;
}

/** The note of an event: a reason (a reassignment: whose place to whom), whom it was sent to, the comparison seen, how it was signed. */
export function noteOf(e: HistoryEvent): string | undefined {
  const d = e.details ?? {};
  const parts = [baseNoteOf(d), seenOf(d), methodOf(d)].filter((x): x is string => x !== undefined);
  return parts.length ? parts.join('. ') : undefined;
}

function baseNoteOf(d: Record<string, unknown>): string | undefined {
  const reason = text(d.rejectionNote) ?? text(d.reason);
  // a reassignment (decision 351) names whose place went to whom, beside its reason
  const from = (d.from as { name?: string } | undefined)?.name;
  const to = (d.to as { name?: string } | undefined)?.name;
  const moved = typeof from === 'string' && typeof to === 'string' ? `${from} → ${to}` : undefined;
  if (moved) return reason ? `${moved}. Reason: ${reason}` : moved;
  if (reason) return `Reason: ${reason}`;
  if (Array.isArray(d.approvers)) {
    const names = (d.approvers as { name?: string; role?: string }[])
      .map((a) => `${a.name ?? '?'} (${roleLabel(a.role ?? '')})`)
      .join(', ');
    const signer = (d.signer as { name?: string } | undefined)?.name;
    return `Approvers: ${names}${signer ? `; signer: ${signer}` : ''}`;
  }
  if (text(d.approved)) return `${d.approved} approved`;
  return undefined;
}

const COLUMNS: readonly Column<HistoryEvent>[] = [
  {
    id: 'at',
    header: 'When',
    cell: (e) => <span className="frp-mono frp-nowrap">{formatUtc(e.at)}</span>,
    sortValue: (e) => e.at,
  },
  {
    id: 'who',
    header: 'Who',
    cell: (e) => <span className="frp-nowrap">{e.actorName}</span>,
    sortValue: (e) => e.actorName,
  },
  {
    id: 'role',
    header: 'Role',
    cell: (e) => <span className="frp-nowrap">{roleLabel(e.actorRole)}</span>,
    sortValue: (e) => roleLabel(e.actorRole),
  },
  {
    id: 'action',
    header: 'Decision',
    cell: (e) => <strong>{actionLabel(e.action)}</strong>,
    sortValue: (e) => actionLabel(e.action),
  },
  {
    id: 'note',
    header: 'Meaning and note',
    cell: (e) => {
      const note = noteOf(e);
      return (
        <>
          <span className="frp-muted">{e.meaning}</span>
          {note ? (
            <>
              <br />
              {note}
            </>
          ) : null}
        </>
      );
    },
  },
];

const searchFields = (e: HistoryEvent) => [
  e.actorName,
  roleLabel(e.actorRole),
  actionLabel(e.action),
  e.at,
  noteOf(e),
];

/**
 * The approval record of a package (who, in which role, when, what decision, with which note), from its
 * hash-chained audit trail; a broken chain is said loudly: the record cannot be trusted.
 */
export function ApprovalRecord({ packageId }: { packageId: string }) {
  const query = useApiQuery((signal) => getHistory(packageId, signal), [packageId]);
  const history = query.data;
  // newest first: what happened last is what a reader looks for
  const events = useMemo(() => [...(history?.events ?? [])].reverse(), [history]);
  return (
    <div className="frp-record">
      {history && !history.chainIntact ? (
        <Alert
          variation="error"
          heading="This approval record failed its integrity check"
          marginBottom="0.75rem"
        >
          An event of this package was altered or removed
          {typeof history.brokenAtSeq === 'number' ? ` (at event ${history.brokenAtSeq})` : ''}. Do not rely
          on this record; tell the administrator.
        </Alert>
      ) : null}
      {query.failed ? (
        <Alert variation="warning">The approval record could not be loaded.</Alert>
      ) : (
        <DataTable
          label="Approval record, newest first"
          rows={events}
          columns={COLUMNS}
          rowKey={(e) => String(e.seq)}
          searchFields={searchFields}
          searchLabel="Search the record"
          loading={query.loading}
          emptyMessage={query.loading ? undefined : 'No events recorded'}
        />
      )}
    </div>
  );
}
