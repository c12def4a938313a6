import { Alert, Button, Heading } from '@aws-amplify/ui-react';
import type { Dcc } from '@shared/api/contracts/dcc';
import { DCC_LIST } from '@shared/domain/list-columns';
import { MSG } from '@shared/messages';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { type Column, DataTable, fieldColumn, sortableColumn } from '@/components/ui/data-table/data-table';
import { StepButtons } from '@/components/ui/form-parts';
import { paths } from '@/config/paths';
import { useServerView } from '@/hooks/use-server-view';
import { showRefusal } from '@/lib/popup/popup-store';
import { session, useSession } from '@/lib/session/session-store';
import { attachDcc, getDccView } from '../api/dcc';
import { creationTitle } from '../utils/package-flow';
import { CreationSteps, PackageStrip } from './package-fields';
import { NoPackage, PackagePage } from './package-page';

const bytes = (n: number) => `${n.toLocaleString('en-US')} B`;

/**
 * The Device ID with the DCC's own id beside it: the pipeline's `--dcc` takes that id, and this is where
 * an engineer looks for it. The spec's four columns stay as they are.
 */
const deviceIdColumn: Column<Dcc> = {
  id: 'deviceId',
  header: MSG.colDeviceId,
  cell: (d) => (
    <span className="frp-dcc-name">
      <span>{d.deviceId}</span>
      <span className="frp-dcc-name__id">
        DCC id <code>{d.id}</code>
      </span>
    </span>
  ),
  sortValue: (d) => d.deviceId,
};

const COLUMNS: readonly Column<Dcc>[] = [
  deviceIdColumn,
  sortableColumn('telemetryType', MSG.colTelemetryType, (d) => d.telemetryType),
  fieldColumn<Dcc, 'deviceLimit'>('deviceLimit', MSG.colDeviceLimit, bytes),
  fieldColumn<Dcc, 'messageLimit'>('messageLimit', MSG.colMessageLimit, bytes),
];

// spec §5: DCC search by device id, limits and telemetry type (by the server: decision 221)
const searchFields = DCC_LIST.search;

/** Navigation state of /packages/dcc: the DCC just created, selected on return. */
export interface DccListState {
  selectedDccId?: string;
}

/**
 * Spec §2.8, §4.2 step 4, §5: /packages/dcc lists the DCCs (Device ID, Telemetry type, Device limit,
 * Message limit) with search and 'Create new DCC'; one must be selected; Continue attaches it and goes
 * to notifying approvers.
 */
export function DccListPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const { currentPackage: pkg, subHeader } = useSession();
  const created = (location.state as DccListState | null)?.selectedDccId;
  const [selected, setSelected] = useState<string[]>(() => {
    const initial = created ?? pkg?.dccId;
    return initial ? [initial] : [];
  });
  const [busy, setBusy] = useState(false);
  // one page at a time, searched, sorted and paged by the server (decision 221)
  const list = useServerView((view, signal) => getDccView(view, signal), []);
  if (!pkg) return <NoPackage />;

  const rows = list.current?.rows ?? [];
  const chosen = selected[0] ? list.seen.get(selected[0]) : undefined;

  const attach = async () => {
    if (!chosen || busy) return;
    setBusy(true);
    const result = await attachDcc(pkg.id, chosen.id);
    setBusy(false);
    if (!result.ok) {
      showRefusal(result.status, result.error.errorMessage);
      return;
    }
    session.update({ currentPackage: result.data ?? { ...pkg, dccId: chosen.id } });
    navigate(paths.packages.notifyApprovers);
  };

  return (
    <PackagePage id="dcc-title" title={subHeader || creationTitle(pkg.resourceStage)}>
      <CreationSteps current={3} />
      <PackageStrip pkg={pkg} />
      <Heading level={2} className="frp-pkg-section__title">
        Choose a DCC
      </Heading>
      <DataTable
        label="Device communication configurations"
        rows={rows}
        columns={COLUMNS}
        rowKey={(d) => d.id}
        searchFields={searchFields}
        loading={list.query.loading}
        server={{ total: list.current?.total ?? 0, onViewChange: list.onViewChange }}
        emptyMessage={
          rows.length === 0 && !list.view.search.trim() ? `No DCC yet: use '${MSG.createNewDcc}'` : undefined
        }
        selection={{ mode: 'single', selected, onChange: setSelected, rowLabel: (d) => d.deviceId }}
        actions={<Button onClick={() => navigate(paths.packages.dccCreate)}>{MSG.createNewDcc}</Button>}
      />
      {chosen ? null : (
        <Alert variation="info" marginTop="1rem">
          Select one DCC to attach to the package.
        </Alert>
      )}
      <div className="frp-actions">
        <StepButtons
          back={{ label: MSG.back, to: paths.packages.header }}
          action={{ label: MSG.continue, busyLabel: 'Attaching…', disabled: !chosen, onClick: attach }}
          busy={busy}
        />
      </div>
    </PackagePage>
  );
}
