import type { Package } from '@shared/api/contracts/packages';
import { assertNever } from '@shared/domain/assert-never';
import { MSG } from '@shared/messages';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { type Column, DataTable, fieldColumn } from '@/components/ui/data-table/data-table';
import { StageTabs } from '@/components/ui/data-table/stage-tabs';
import { anyGenerating, GenerationBadge } from '@/components/ui/package-state';
import { StatusBadge } from '@/components/ui/status-badge';
import { useApiQuery } from '@/hooks/use-api-query';
import { session } from '@/lib/session/session-store';
import { INITIAL_VIEW, sameView, type TableView } from '@/lib/table/table-logic';
import { waitingForLabel, waitsFirstFor } from '@/lib/turns';
import { resourceTypeLabel, stageLabel } from '@/utils/format';
import { getPackageList, getPackageView, getWorkLists, type ListView } from '../api/package-lists';
import {
  firstTabWithWork,
  initialTab,
  LIST_TABS,
  type ListKind,
  type ListTab,
  listTitle,
  rowClickTarget,
  rowHighlight,
  rowLabel,
  showsStatus,
  TAB_LABELS,
  tabFlow,
} from '../utils/package-flow';
import { PackagePage } from './package-page';

function columns(kind: ListKind, tab: ListTab): Column<Package>[] {
  const flow = tabFlow(kind, tab);
  return [
    {
      id: 'name',
      header: MSG.colPackageName,
      sortValue: (p) => p.name,
      cell: (p) => {
        // the approval policy's order: a package not yet the user's turn says whom it waits for first
        const awaited = waitsFirstFor(p, session.get().user?.id, flow);
        const label = awaited.length > 0 ? waitingForLabel(awaited) : rowLabel(p, flow);
        const tone = rowHighlight(p, flow) === 'rejected' ? 'bad' : 'wait';
        return (
          <span className="frp-cell-name">
            <span>{p.name}</span>
            {label ? (
              <span className={`frp-badge frp-badge--${tone}`} data-testid="delivery-label">
                {label}
              </span>
            ) : p.status === 'GENERATING' ? (
              // decision 160: in every list, with the bytes done of the total (refreshed: decision 178)
              <GenerationBadge pkg={p} />
            ) : showsStatus(flow) ? (
              <StatusBadge status={p.status} />
            ) : null}
            {/* a failed generation's reason, in every list, as the detail page says it (decision 178) */}
            {p.status !== 'GENERATING' ? <GenerationBadge pkg={p} /> : null}
          </span>
        );
      },
    },
    fieldColumn<Package, 'resourceType'>('resourceType', MSG.colResourceType, resourceTypeLabel),
    fieldColumn<Package, 'resourceStage'>('resourceStage', MSG.colResourceStage, stageLabel),
    {
      id: 'signed',
      header: MSG.colIsSigned,
      // the spec's 'Yes' is the package type's flag; beside it, whether the signature is there
      cell: (p) => (
        <>
          {p.signed ? 'Yes' : 'No'}
          {signatureState(p) ? (
            <span className="frp-muted frp-signed-state" data-testid="signature-state">
              {' '}
              ({signatureState(p)})
            </span>
          ) : null}
        </>
      ),
      sortValue: (p) => (p.signed ? 'Yes' : 'No'),
    },
    {
      id: 'note',
      header: MSG.colNote,
      cell: (p) => (
        <span className="frp-cell-note" title={p.note}>
          {p.note}
        </span>
      ),
      sortValue: (p) => p.note,
    },
  ];
}

/**
 * Where a signed package's signature stands, beside the spec's 'Yes': awaited, not given yet,
 * or never to come; nothing once it is signed, and nothing for an unsigned package.
 */
export function signatureState(p: Pick<Package, 'signed' | 'status'>): string | null {
  if (!p.signed) return null;
  switch (p.status) {
    case 'AWAITING_SIGNATURE':
      return 'signature awaited';
    case 'DRAFT':
    case 'PENDING_APPROVAL':
      return 'signed after approval';
    case 'REJECTED':
      return 'not signed: rejected';
    case 'GENERATING':
      return 'being signed';
    case 'APPROVED':
    case 'SIGNED':
    case 'DELIVERY_PENDING':
    case 'DELIVERED':
    case 'DELIVERY_REJECTED':
      return null;
    default:
      return assertNever(p.status, 'package status');
  }
}

const EMPTY: Record<ListKind, string> = {
  packages: 'No packages yet',
  approve: 'Nothing waits for your approval here',
  sign: 'Nothing waits for your signature here',
};

// spec §5: packages are searched by name, resource name and note
const searchFields = (p: Package) => [p.name, p.resourceName, p.note];

/**
 * Spec §2.5, §2.6, §4.3, §4.4, §4.8: the package list (Development, Release, Delivery), the approval
 * list (three tabs, APPROVE … PACKAGE) and the signing list (two tabs, SIGN … PACKAGE). A tab switch
 * resets page and search, loads that stage and sets the flow purpose; a row click stores the package,
 * sets the subheader and opens the page of its flow.
 */
export function PackageListPage({ kind }: { kind: ListKind }) {
  const navigate = useNavigate();
  const { tab: chosen, setTab, counts } = useListTab(kind);
  // until the approval and signing lists know which tab has work, the table waits on the first tab
  const tab = chosen ?? LIST_TABS[kind][0] ?? 'DEV';
  const flow = tabFlow(kind, tab);
  // the package lists are searched, sorted and paged by the server (decision 210): the table's view
  // goes with each read; the approval and signing lists hold only what waits for the user: read whole
  const server = kind === 'packages';
  const [view, setView] = useState<TableView>(INITIAL_VIEW);
  const onViewChange = useCallback((next: TableView) => setView((v) => (sameView(v, next) ? v : next)), []);
  const query = useApiQuery<ListView<Package>>(
    async (signal, background) => {
      // a background refresh (decision 178) is quiet: no loader, no popup
      if (!chosen && !background) return new Promise<never>(() => {});
      if (server) return getPackageView(tab, view, signal, background);
      const r = await getPackageList(kind, tab, signal, undefined, background);
      return r.ok ? { ...r, data: { rows: r.data, total: r.data.length } } : r;
    },
    [kind, chosen, server ? view : null],
    // while a row is GENERATING the list reads itself again until every such row moved on (decision 178)
    { refreshWhile: (d) => anyGenerating(d.rows) },
  );
  // a new page keeps the last one on screen (and its range) until it arrives
  const [shown, setShown] = useState<ListView<Package> | undefined>(undefined);
  useEffect(() => {
    if (query.data) setShown(query.data);
    else if (query.failed) setShown(undefined);
  }, [query.data, query.failed]);
  const current = query.data ?? (query.loading ? shown : undefined);
  const switchTab = (t: ListTab) => {
    setShown(undefined);
    setView(INITIAL_VIEW);
    setTab(t);
  };
  const { update: updateCount } = counts;
  useEffect(() => {
    if (kind !== 'packages' && chosen && query.data) updateCount(chosen, query.data.total);
  }, [kind, chosen, query.data, updateCount]);

  useEffect(() => {
    if (chosen && session.get().flowPurpose !== flow) session.update({ flowPurpose: flow });
  }, [chosen, flow]);

  const open = (pkg: Package) => {
    const target = rowClickTarget(pkg, flow);
    session.update({ currentPackage: pkg, subHeader: target.subHeader, flowPurpose: flow });
    navigate(target.path);
  };

  const title = listTitle(kind, tab);
  const tabs = LIST_TABS[kind];
  const rows = current?.rows ?? [];
  const cols = useMemo(() => columns(kind, tab), [kind, tab]);

  return (
    <PackagePage id="package-list-title" title={title}>
      <StageTabs
        value={tab}
        onChange={switchTab}
        tabs={tabs.map((t) => ({ value: t, label: TAB_LABELS[t], count: counts.of[t] }))}
      >
        <DataTable
          key={`${kind}-${tab}`}
          label={`${title}: ${TAB_LABELS[tab]}`}
          rows={rows}
          columns={cols}
          rowKey={(p) => p.id}
          searchFields={searchFields}
          loading={query.loading || !chosen}
          server={server ? { total: current?.total ?? 0, onViewChange } : undefined}
          onRowClick={open}
          rowClassName={(p) => {
            const h = rowHighlight(p, flow);
            return h ? `frp-row--${h}` : undefined;
          }}
          emptyMessage={rows.length === 0 && !view.search.trim() ? EMPTY[kind] : undefined}
        />
      </StageTabs>
    </PackagePage>
  );
}

/**
 * The list's tab: for the package list the session's (spec §4.8, as before); for the approval and
 * signing lists every tab is counted first, then the list opens on the first tab with work
 * (firstTabWithWork); each later load of a tab refreshes its count.
 */
function useListTab(kind: ListKind) {
  const work = kind !== 'packages';
  const [start] = useState(() => session.get());
  const [tab, setTab] = useState<ListTab | null>(() =>
    work ? null : initialTab(kind, start.flowPurpose, start.currentPackage),
  );
  const [of, setCounts] = useState<Partial<Record<ListTab, number>>>({});
  const update = useCallback(
    (t: ListTab, n: number) => setCounts((c) => (c[t] === n ? c : { ...c, [t]: n })),
    [],
  );
  useEffect(() => {
    if (kind === 'packages') return;
    const controller = new AbortController();
    getWorkLists(kind, controller.signal).then((r) => {
      if (controller.signal.aborted) return;
      const counts = r.ok
        ? Object.fromEntries(Object.entries(r.data).map(([t, rows]) => [t, rows?.length ?? 0]))
        : {};
      setCounts(counts);
      setTab((t) => t ?? firstTabWithWork(kind, start.flowPurpose, start.currentPackage, counts));
    });
    return () => controller.abort();
  }, [kind, start]);
  return { tab, setTab, counts: { of, update } };
}

export const PackagesPage = () => <PackageListPage kind="packages" />;
export const ApproveListPage = () => <PackageListPage kind="approve" />;
export const SignListPage = () => <PackageListPage kind="sign" />;
