import { Alert, Table, TableBody, TableCell, TableHead, TableRow } from '@aws-amplify/ui-react';
import { assertNever } from '@shared/domain/assert-never';
import type {
  EntryField,
  FixedField,
  GroupField,
  HeaderField,
  ListField,
} from '@shared/domain/header/header-schema';
import { Fragment, type ReactNode } from 'react';
import { pathOf, type ValueTarget } from '../utils/header-editor-state';
import { type HeaderDepth, HeaderNameCell } from './header-name-cell';

/** One integer or enum of the header: a top-level field, a group member or a list entry member. */
export interface ValueRowModel {
  field: EntryField;
  value: number;
  target: ValueTarget;
  /** the path the server's errors name */
  path: string;
  /** the accessible name of its inputs: `Package Id`, `Device Model Id, Model Id`, `Items entry 1, Mask` */
  label: string;
  depth: HeaderDepth;
}

/** How one page draws the rows of the header table (the editor with inputs, the view as text). */
export interface HeaderRowRenderers {
  fixed: (field: FixedField) => ReactNode;
  value: (row: ValueRowModel) => ReactNode;
  /** the first row of a list: its name and entry count */
  list: (field: ListField) => ReactNode;
  /** the first row of one entry of a list */
  entry: (field: ListField, index: number) => ReactNode;
}

/** A group's first row: its name across the three columns. */
function GroupRow({ field }: { field: GroupField }) {
  return (
    <TableRow className="frp-hdr-section">
      <HeaderNameCell name={field.name} title={field.title} colSpan={3} />
    </TableRow>
  );
}

function rowsOf(
  field: HeaderField,
  draw: HeaderRowRenderers,
  entryKey: (list: string, index: number) => number,
): ReactNode[] {
  const at = (key: string, node: ReactNode) => <Fragment key={key}>{node}</Fragment>;
  switch (field.type) {
    case 'fixed':
      return [at(field.name, draw.fixed(field))];
    case 'group':
      return [
        at(field.name, <GroupRow field={field} />),
        ...field.template.map((member) => {
          const target = { field: field.name, member: member.name };
          return at(
            `${field.name}.${member.name}`,
            draw.value({
              field: member,
              value: field.value[member.name] ?? member.value,
              target,
              path: pathOf(target),
              label: `${field.name}, ${member.name}`,
              depth: 'member',
            }),
          );
        }),
      ];
    case 'list':
      return [
        at(field.name, draw.list(field)),
        ...field.value.flatMap((entry, index) => {
          const key = `${field.name}#${entryKey(field.name, index)}`;
          return [
            at(key, draw.entry(field, index)),
            ...field.template.map((member) => {
              const target = { field: field.name, index, member: member.name };
              return at(
                `${key}.${member.name}`,
                draw.value({
                  field: member,
                  value: entry[member.name] ?? member.value,
                  target,
                  path: pathOf(target),
                  label: `${field.name} entry ${index + 1}, ${member.name}`,
                  depth: 'entry',
                }),
              );
            }),
          ];
        }),
      ];
    case 'uint8':
    case 'uint16':
    case 'uint32':
    case 'enum':
      return [
        at(
          field.name,
          draw.value({
            field,
            value: field.value,
            target: { field: field.name },
            path: field.name,
            label: field.name,
            depth: 'top',
          }),
        ),
      ];
    default:
      return assertNever(field, 'header field type');
  }
}

/**
 * The package header as a table of Name and two value columns (spec §2.8 Decimal and HEX, §2.9 Value
 * and Hex value): one walk over the fields for the editor and the read-only view, which differ only in
 * how they draw a row. `entryKey` keeps the editor's rows with their entry when one before it goes.
 */
export function HeaderTable({
  fields,
  columns,
  draw,
  entryKey = (_list, index) => index,
}: {
  fields: HeaderField[];
  columns: readonly [string, string, string];
  draw: HeaderRowRenderers;
  entryKey?: (list: string, index: number) => number;
}) {
  return (
    <div className="frp-table-wrap">
      <Table className="frp-table frp-header-table" size="small" aria-label="Package header">
        <TableHead>
          <TableRow>
            {columns.map((label) => (
              <TableCell key={label} as="th" scope="col">
                {label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>{fields.flatMap((field) => rowsOf(field, draw, entryKey))}</TableBody>
      </Table>
    </div>
  );
}

/** What shows while the header loads, or when it could not be loaded. */
export function HeaderUnavailable({ loading }: { loading: boolean }) {
  return loading ? (
    <p className="frp-muted">Loading the header…</p>
  ) : (
    <Alert variation="error">The header could not be loaded.</Alert>
  );
}
