import { Button, Heading, Text } from '@aws-amplify/ui-react';
import type { DeletionProposalView } from '@shared/domain/deletion-proposals';
import { MSG } from '@shared/messages';
import { type ReactNode, useState } from 'react';
import { type Column, DataTable } from '@/components/ui/data-table/data-table';
import { paths } from '@/config/paths';
import { useServerView } from '@/hooks/use-server-view';
import { isProofRefusal } from '@/lib/passkeys/passkey-api';
import { showSuccess, showWarning } from '@/lib/popup/popup-store';
import type { SortValue } from '@/lib/table/table-logic';
import { type AdminKind, type AdminRows, deleteAdmin, listAdminView } from '../api/admin-api';
import { DeleteConfirmDialog, type DeletionSignature } from './delete-confirm-dialog';

export interface AdminListPageProps<K extends AdminKind> {
  kind: K;
  title: string;
  columns: readonly Column<AdminRows[K]>[];
  searchFields: (row: AdminRows[K]) => readonly SortValue[];
  rowLabel: (row: AdminRows[K]) => string;
  /** the row's state in words, shown beside its label in the delete confirm dialog */
  rowState: (row: AdminRows[K]) => ReactNode;
  /** people wait on the row (a package in flight): its deletion is signed */
  rowInFlight?: (row: AdminRows[K]) => boolean;
  /** the row's deletion takes two admins (decision 336): whether it does, and the pending proposal */
  rowTwoAdmins?: (row: AdminRows[K]) => { proposal?: DeletionProposalView } | undefined;
  /** the row's deletion is always an electronic signature with a reason (an account: decision 357) */
  rowSigned?: (row: AdminRows[K]) => boolean;
  /** what the list holds, plural, for the confirm dialog ('packages', 'users', …) */
  noun: string;
  note?: string;
  /** while this holds for the rows, the list reads itself again in the background (decision 178) */
  refreshWhile?: (rows: AdminRows[K][]) => boolean;
  /** more buttons for the selected rows, beside 'Delete selected' (the users' Grant / Refuse) */
  extraActions?: (ctx: {
    selected: readonly string[];
    done: () => void;
    rows: readonly AdminRows[K][];
  }) => ReactNode;
}

/** The dialog's fields of a row whose deletion takes two admins. */
const twoAdminsOf = (t: { proposal?: DeletionProposalView } | undefined) =>
  t ? { twoAdmins: true, ...(t.proposal ? { proposal: t.proposal } : {}) } : {};

/** The 202's words, or ours when the answer carries none. */
const proposedText = (data: unknown): string => {
  const m = (data as { message?: unknown } | undefined)?.message;
  return typeof m === 'string' ? m : MSG.deletionProposed;
};

/**
 * Spec §2.12: a searchable, sortable, paged multi-select list with 'Delete selected'; success shows
 * 'Deleted successfully.' and Close returns to /admin. Deletion needs at least one selection (§5).
 */
export function AdminListPage<K extends AdminKind>({
  kind,
  title,
  columns,
  searchFields,
  rowLabel,
  rowState,
  rowInFlight,
  rowTwoAdmins,
  rowSigned,
  noun,
  note,
  refreshWhile,
  extraActions,
}: AdminListPageProps<K>) {
  const [selected, setSelected] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  // every admin list is searched, sorted and paged by the server (decisions 221, 260): the table's view
  // goes with each read, one page at a time
  const paged = useServerView<AdminRows[K]>(
    (view, signal, background) => listAdminView(kind, view, signal, background),
    [kind],
    { refreshWhile },
  );
  const query = paged.query;
  const rows = paged.current?.rows ?? [];
  // a selection made on an earlier page keeps its rows (the dialog names them, Grant needs their roles)
  const selectedRows = selected.flatMap((id) => {
    const row = paged.seen.get(id);
    return row ? [row] : [];
  });

  // 'Delete selected' asks first; only the dialog's Delete calls the API. A signed deletion
  // (packages in flight) keeps the dialog open on a refused proof (password, passkey) and says so there.
  const remove = async (signature?: DeletionSignature): Promise<string | null> => {
    if (selected.length === 0 || busy) return null;
    setBusy(true);
    const result = await deleteAdmin(kind, selected, signature);
    setBusy(false);
    if (!result.ok && result.status === 403 && isProofRefusal(result.error)) return result.error.errorMessage;
    setConfirming(false);
    if (result.ok && result.status === 202) {
      // a proposal (decision 336): the list shows it pending; the popup says what waits
      setSelected([]);
      query.reload();
      showSuccess(proposedText(result.data));
    } else if (result.ok) {
      setSelected([]);
      query.reload();
      showSuccess(MSG.deleted, { to: paths.admin.home });
    } else if ([400, 403, 409].includes(result.status)) {
      showWarning(result.error.errorMessage);
    }
    return null;
  };

  return (
    <section className="frp-card" aria-labelledby={`admin-${kind}-title`}>
      <Heading level={1} id={`admin-${kind}-title`} className="frp-page-title">
        {title}
      </Heading>
      {note ? (
        <Text marginBottom="1rem" fontWeight={600} color="orange.90">
          {note}
        </Text>
      ) : null}
      <DataTable
        label={title}
        rows={rows}
        columns={columns}
        rowKey={(row) => row.id}
        searchFields={searchFields}
        loading={query.loading}
        server={{ total: paged.current?.total ?? 0, onViewChange: paged.onViewChange }}
        selection={{ mode: 'multiple', selected, onChange: setSelected, rowLabel }}
        actions={
          <>
            {extraActions?.({
              selected,
              rows: selectedRows,
              done: () => {
                setSelected([]);
                query.reload();
              },
            })}
            <Button
              variation="destructive"
              isDisabled={selected.length === 0}
              onClick={() => setConfirming(true)}
            >
              {MSG.deleteSelected}
              {selected.length > 0 ? ` (${selected.length})` : ''}
            </Button>
          </>
        }
      />
      {confirming && selected.length > 0 ? (
        <DeleteConfirmDialog
          noun={noun}
          busy={busy}
          items={selectedRows.map((row) => ({
            id: row.id,
            name: rowLabel(row),
            state: rowState(row),
            inFlight: rowInFlight?.(row) ?? false,
            signed: rowSigned?.(row) ?? false,
            ...twoAdminsOf(rowTwoAdmins?.(row)),
          }))}
          onCancel={() => setConfirming(false)}
          onConfirm={remove}
        />
      ) : null}
    </section>
  );
}
