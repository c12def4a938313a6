import {
  Alert,
  Button,
  Heading,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
} from '@aws-amplify/ui-react';
import { displayCells, formatHex } from '@shared/domain/header/header-display';
import type { EntryField, EntryValue, HeaderField } from '@shared/domain/header/header-schema';
import { MSG } from '@shared/messages';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useApiQuery } from '@/hooks/use-api-query';
import { useSession } from '@/lib/session/session-store';
import { getHeader } from '../api/header';
import { useMainAction } from '../hooks/use-main-action';
import {
  canDeliver,
  detailsPathOf,
  type MainAction,
  mainAction,
  mainActionLabel,
  rejectKind,
} from '../utils/package-flow';
import { type HeaderDepth, HeaderNameCell } from './header-name-cell';
import { PackageStrip } from './package-fields';
import { NoPackage, PackagePage } from './package-page';
import { RejectDialog } from './reject-dialog';

/** What pressing the main button records in the package's approval record, under the user's name. */
const MEANINGS: Record<Exclude<MainAction, 'deliver'>, string> = {
  approve:
    'Approve records, under your name and role, that the package (its content, header and DCC) is fit for the next step.',
  'approve-delivery':
    'Approve records, under your name and role, your approval of delivering this package to devices.',
  sign: 'Sign generates the signed package file with the portal key and records you as its signer.',
};

/** Value and Hex value of an integer or enum (an enum shows its option's label). */
function valueCells(field: EntryField, value: number) {
  const hex = displayCells(field, value).hex;
  if (field.type === 'enum') {
    const option = field.options.find((o) => o.value === value);
    return { value: option ? option.label : String(value), hex };
  }
  return { value: String(value), hex: formatHex(value, field.type) };
}

function ValueRow({ field, value, depth }: { field: EntryField; value: number; depth: HeaderDepth }) {
  const cells = valueCells(field, value);
  return (
    <TableRow>
      <HeaderNameCell name={field.name} title={field.title} depth={depth} />
      <TableCell>{cells.value}</TableCell>
      <TableCell className="frp-mono">{cells.hex}</TableCell>
    </TableRow>
  );
}

function SectionRow({ name, title, extra }: { name: string; title?: string; extra?: string }) {
  return (
    <TableRow className="frp-hdr-section">
      <HeaderNameCell name={name} title={title} colSpan={3} extra={extra} />
    </TableRow>
  );
}

function rowsOf(field: HeaderField) {
  switch (field.type) {
    case 'fixed': {
      const cells = displayCells(field);
      return (
        <TableRow key={field.name}>
          <HeaderNameCell name={field.name} title={field.title} />
          <TableCell>{field.storage === 'bytes' ? `${field.width} bytes` : cells.decimal}</TableCell>
          <TableCell className="frp-mono">{cells.hex}</TableCell>
        </TableRow>
      );
    }
    case 'group':
      return [
        <SectionRow key={field.name} name={field.name} title={field.title} />,
        ...field.template.map((m) => (
          <ValueRow
            key={`${field.name}.${m.name}`}
            field={m}
            value={(field.value as EntryValue)[m.name] ?? m.value}
            depth="member"
          />
        )),
      ];
    case 'list':
      return [
        <SectionRow
          key={field.name}
          name={field.name}
          title={field.title}
          extra={
            field.value.length === 0 ? 'No entries' : `${field.value.length} of ${field.maxEntries} entries`
          }
        />,
        ...field.value.flatMap((entry, i) => [
          // biome-ignore lint/suspicious/noArrayIndexKey: read-only rows; an entry is its position in the list
          <TableRow key={`${field.name}[${i}]`} className="frp-hdr-entry">
            <HeaderNameCell name={`Entry ${i + 1}`} depth="member" colSpan={3} />
          </TableRow>,
          ...field.template.map((m) => (
            <ValueRow
              // biome-ignore lint/suspicious/noArrayIndexKey: read-only rows; an entry is its position in the list
              key={`${field.name}[${i}].${m.name}`}
              field={m}
              value={entry[m.name] ?? m.value}
              depth="entry"
            />
          )),
        ]),
      ];
    default:
      return <ValueRow key={field.name} field={field} value={field.value} depth="top" />;
  }
}

/**
 * Spec §2.9 /packages/header/view: the read-only header (Name, Value, Hex value). The main button is
 * Approve, Sign or Continue by flow; Reject in the decision flows; Back to the package.
 */
export function HeaderViewPage() {
  const navigate = useNavigate();
  const { currentPackage: pkg, flowPurpose, subHeader, user } = useSession();
  const [rejecting, setRejecting] = useState(false);
  const { run, busy } = useMainAction();
  const query = useApiQuery(
    (signal) =>
      pkg
        ? getHeader(pkg.id, signal)
        : Promise.resolve({ ok: false as const, status: 0, error: { errorMessage: '' } }),
    [pkg?.id],
  );
  if (!pkg) return <NoPackage />;

  const action = mainAction(flowPurpose, canDeliver(pkg, user?.userRole));
  const reject = rejectKind(flowPurpose);

  return (
    <PackagePage id="header-view-title" title={subHeader || 'Package header'}>
      <PackageStrip pkg={pkg} />
      <Heading level={2} className="frp-pkg-section__title">
        Package header
      </Heading>
      {query.data ? (
        <div className="frp-table-wrap">
          <Table className="frp-table frp-header-table" size="small" aria-label="Package header">
            <TableHead>
              <TableRow>
                <TableCell as="th" scope="col">
                  {MSG.colName}
                </TableCell>
                <TableCell as="th" scope="col">
                  {MSG.colValue}
                </TableCell>
                <TableCell as="th" scope="col">
                  {MSG.colHexValue}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>{query.data.fields.flatMap((f) => rowsOf(f))}</TableBody>
          </Table>
        </div>
      ) : query.loading ? (
        <p className="frp-muted">Loading the header…</p>
      ) : (
        <Alert variation="error">The header could not be loaded.</Alert>
      )}
      {action && action !== 'deliver' ? (
        <p className="frp-muted" style={{ marginBottom: 0 }}>
          {MEANINGS[action]}
        </p>
      ) : null}
      <div className="frp-actions">
        <Button onClick={() => navigate(detailsPathOf(pkg, flowPurpose))} isDisabled={busy}>
          {MSG.back}
        </Button>
        <span className="frp-actions__spacer" />
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
      </div>
      {rejecting && reject ? (
        <RejectDialog pkg={pkg} kind={reject} onCancel={() => setRejecting(false)} />
      ) : null}
    </PackagePage>
  );
}
