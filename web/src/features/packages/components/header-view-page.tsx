import { Button, Heading, TableCell, TableRow } from '@aws-amplify/ui-react';
import { displayCells, formatHex } from '@shared/domain/header/header-display';
import type { EntryField } from '@shared/domain/header/header-schema';
import { SIGNATURE_MEANINGS, signatureMeaning } from '@shared/domain/signature-meanings';
import { MSG } from '@shared/messages';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ActionBar, ActionBarSpacer } from '@/components/ui/action-bar';
import { SignatureDialog } from '@/components/ui/signature-dialog';
import { useSession } from '@/lib/session/session-store';
import { turnSentence, waitsFirstFor } from '@/lib/turns';
import { useMainAction } from '../hooks/use-main-action';
import { usePackageHeader } from '../hooks/use-package-header';
import {
  canDeliver,
  detailsPathOf,
  type MainAction,
  mainAction,
  mainActionLabel,
  rejectKind,
} from '../utils/package-flow';
import { ChangesPanel, changesSeenText, usePackageChanges } from './changes-panel';
import { HeaderNameCell } from './header-name-cell';
import { type HeaderRowRenderers, HeaderTable, HeaderUnavailable } from './header-table';
import { PackageStrip } from './package-fields';
import { NoPackage, PackagePage } from './package-page';
import { RejectDialog } from './reject-dialog';
import { ReviewCards } from './review-cards';

/**
 * What pressing the main button signs, in the words of shared/domain/signature-meanings.ts (the signature
 * dialog repeats them and asks for the password).
 */
const MEANINGS = (type: string): Record<Exclude<MainAction, 'deliver'>, string> => ({
  approve: `Approving signs, under your name and role: “${signatureMeaning('approve', type)}”.`,
  'approve-delivery': `Approving signs, under your name and role: “${SIGNATURE_MEANINGS.approveDelivery}”.`,
  sign: `Signing generates the signed package file with the portal key and signs, under your name and role: “${signatureMeaning('sign', type)}”.`,
});

/** Value and Hex value of an integer or enum (an enum shows its option's label). */
function valueCells(field: EntryField, value: number) {
  const hex = displayCells(field, value).hex;
  if (field.type === 'enum') {
    const option = field.options.find((o) => o.value === value);
    return { value: option ? option.label : String(value), hex };
  }
  return { value: String(value), hex: formatHex(value, field.type) };
}

/** The view's rows of the shared header table: values as text. */
const VIEW_ROWS: HeaderRowRenderers = {
  fixed: (field) => {
    const cells = displayCells(field);
    return (
      <TableRow>
        <HeaderNameCell name={field.name} title={field.title} />
        <TableCell>{field.storage === 'bytes' ? `${field.width} bytes` : cells.decimal}</TableCell>
        <TableCell className="frp-mono">{cells.hex}</TableCell>
      </TableRow>
    );
  },
  value: ({ field, value, depth }) => {
    const cells = valueCells(field, value);
    return (
      <TableRow>
        <HeaderNameCell name={field.name} title={field.title} depth={depth} />
        <TableCell>{cells.value}</TableCell>
        <TableCell className="frp-mono">{cells.hex}</TableCell>
      </TableRow>
    );
  },
  list: (field) => (
    <TableRow className="frp-hdr-section">
      <HeaderNameCell
        name={field.name}
        title={field.title}
        colSpan={3}
        extra={
          field.value.length === 0 ? 'No entries' : `${field.value.length} of ${field.maxEntries} entries`
        }
      />
    </TableRow>
  ),
  entry: (_field, index) => (
    <TableRow className="frp-hdr-entry">
      <HeaderNameCell name={`Entry ${index + 1}`} depth="member" colSpan={3} />
    </TableRow>
  ),
};

/**
 * Spec §2.9 /packages/header/view: the read-only header (Name, Value, Hex value). The main button is
 * Approve, Sign or Continue by flow; Reject in the decision flows; Back to the package.
 */
export function HeaderViewPage() {
  const navigate = useNavigate();
  const { currentPackage: pkg, flowPurpose, subHeader, user } = useSession();
  const [rejecting, setRejecting] = useState(false);
  const query = usePackageHeader(pkg?.id);
  const reviewing =
    !!pkg && (!!mainAction(flowPurpose, canDeliver(pkg, user?.userRole)) || !!rejectKind(flowPurpose));
  const changes = usePackageChanges(reviewing ? pkg?.id : undefined);
  const { run, busy, signing, submit, cancel } = useMainAction(reviewing ? changes : undefined);
  if (!pkg) return <NoPackage />;

  // not the user's turn yet under the approval policy's order: no Approve, the sentence instead (Reject stays)
  const awaited = waitsFirstFor(pkg, user?.id, flowPurpose);
  const action = awaited.length > 0 ? null : mainAction(flowPurpose, canDeliver(pkg, user?.userRole));
  const reject = rejectKind(flowPurpose);

  return (
    <PackagePage id="header-view-title" title={subHeader || 'Package header'}>
      <PackageStrip pkg={pkg} />
      <ReviewCards pkg={pkg} />
      {reviewing ? <ChangesPanel pkg={pkg} query={changes} /> : null}
      <Heading level={2} className="frp-pkg-section__title">
        Package header
      </Heading>
      {query.data ? (
        <HeaderTable
          fields={query.data.fields}
          columns={[MSG.colName, MSG.colValue, MSG.colHexValue]}
          draw={VIEW_ROWS}
        />
      ) : (
        <HeaderUnavailable loading={query.loading} />
      )}
      <ActionBar
        label="Package actions"
        note={
          awaited.length > 0
            ? turnSentence(awaited)
            : action && action !== 'deliver'
              ? MEANINGS(pkg.type)[action]
              : undefined
        }
      >
        <Button onClick={() => navigate(detailsPathOf(pkg, flowPurpose))} isDisabled={busy}>
          {MSG.back}
        </Button>
        <ActionBarSpacer />
        {reject ? (
          <Button variation="destructive" onClick={() => setRejecting(true)} isDisabled={busy}>
            {MSG.reject}
          </Button>
        ) : null}
        {action ? (
          <Button
            variation="primary"
            onClick={() => run(action, pkg)}
            isLoading={busy}
            isDisabled={!query.data}
            loadingText="Working…"
          >
            {mainActionLabel(action)}
          </Button>
        ) : null}
      </ActionBar>
      {rejecting && reject ? (
        <RejectDialog pkg={pkg} kind={reject} onCancel={() => setRejecting(false)} changes={changes} />
      ) : null}
      {signing ? (
        <SignatureDialog
          pkg={signing.pkg}
          action={signing.action}
          onCancel={cancel}
          onSubmit={submit}
          changesSeen={changesSeenText(changes)}
        />
      ) : null}
    </PackagePage>
  );
}
