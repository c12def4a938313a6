import { Button, Input, SelectField, TableCell, TableRow } from '@aws-amplify/ui-react';
import { displayCells, formatHex } from '@shared/domain/header/header-display';
import type { EnumField, FixedField, ListField, UintType } from '@shared/domain/header/header-schema';
import { UINT_MAX } from '@shared/domain/header/header-schema';
import type { ReactNode } from 'react';
import type { HeaderEditor } from '../hooks/use-header-editor';
import { type Draft, type Typed, typeDecimal, typeHex } from '../utils/header-editor-state';
import { HeaderNameCell } from './header-name-cell';
import type { ValueRowModel } from './header-table';

/** Inputs of one integer: Decimal and HEX kept in step; input beyond the type's maximum is refused (spec §5). */
function UintCells({
  path,
  label,
  type,
  value,
  draft,
  readOnly,
  invalid,
  onTyped,
  onDraft,
}: {
  path: string;
  label: string;
  type: UintType;
  value: number;
  draft: Draft | undefined;
  readOnly: boolean;
  invalid: boolean;
  onTyped: (typed: Typed) => void;
  onDraft: (draft: Draft | undefined) => void;
}) {
  const shown = {
    dec: draft?.dec ?? String(value),
    hex: draft?.hex ?? formatHex(value, type),
    error: draft?.error,
  };
  // leaving a cell shows the stored value again, unless the cell is blank
  const onBlur = () => {
    if (draft && !draft.error) onDraft(undefined);
  };
  const input = {
    className: 'frp-hdr-input',
    size: 'small',
    'aria-describedby': draft?.error || draft?.notice ? `${path}-msg` : undefined,
    hasError: Boolean(draft?.error) || invalid,
    isReadOnly: readOnly,
    onBlur,
  } as const;
  return (
    <>
      <TableCell>
        <Input
          {...input}
          inputMode="numeric"
          aria-label={`${label} (decimal)`}
          value={shown.dec}
          onChange={(event) => onTyped(typeDecimal(event.target.value, type, shown))}
        />
        {draft?.error || draft?.notice ? (
          <p
            id={`${path}-msg`}
            className={`frp-hdr-msg ${draft.error ? 'frp-hdr-msg--error' : 'frp-hdr-msg--notice'}`}
            role="status"
          >
            {draft.notice ?? draft.error}
          </p>
        ) : null}
      </TableCell>
      <TableCell>
        <Input
          {...input}
          aria-label={`${label} (HEX)`}
          value={shown.hex}
          onChange={(event) => onTyped(typeHex(event.target.value, type, shown))}
          spellCheck={false}
        />
      </TableCell>
    </>
  );
}

/** Spec §3: enum fields offer a fixed list of options (a select); HEX shows what is stored. */
function EnumCells({
  label,
  field,
  value,
  readOnly,
  invalid,
  onValue,
}: {
  label: string;
  field: EnumField;
  value: number;
  readOnly: boolean;
  invalid: boolean;
  onValue: (value: number) => void;
}) {
  return (
    <>
      <TableCell>
        <SelectField
          className="frp-hdr-input"
          label={label}
          labelHidden
          size="small"
          value={String(value)}
          isDisabled={readOnly}
          hasError={invalid}
          onChange={(event) => onValue(Number(event.target.value))}
        >
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </SelectField>
      </TableCell>
      <TableCell>
        <span className="frp-hdr-fixed">{displayCells(field, value).hex}</span>
      </TableCell>
    </>
  );
}

/** One editable integer or enum, with its type and range and the server's error on it. */
export function EditorValueRow({
  row,
  editor,
  readOnly,
}: {
  row: ValueRowModel;
  editor: HeaderEditor;
  readOnly: boolean;
}) {
  const { field, value, path, label, target } = row;
  const serverError = editor.state.errors[path];
  return (
    <TableRow>
      <HeaderNameCell
        name={field.name}
        title={field.title}
        depth={row.depth}
        extra={
          <>
            {field.type === 'enum'
              ? `${field.options.length} options`
              : `${field.type}, 0 to ${UINT_MAX[field.type]}`}
            {serverError ? <span className="frp-hdr-msg frp-hdr-msg--error"> {serverError}</span> : null}
          </>
        }
      />
      {field.type === 'enum' ? (
        <EnumCells
          label={label}
          field={field}
          value={value}
          readOnly={readOnly}
          invalid={Boolean(serverError)}
          onValue={(v) => editor.setValue(path, target, v)}
        />
      ) : (
        <UintCells
          path={path}
          label={label}
          type={field.type}
          value={value}
          draft={editor.state.drafts[path]}
          readOnly={readOnly}
          invalid={Boolean(serverError)}
          onTyped={(typed) => editor.typed(path, target, typed)}
          onDraft={(d) => editor.setDraft(path, d)}
        />
      )}
    </TableRow>
  );
}

/** Spec §3: fixed fields are read-only; those the server computes say so. */
export function EditorFixedRow({ field }: { field: FixedField }) {
  const cells = displayCells(field);
  return (
    <TableRow>
      <HeaderNameCell
        name={field.name}
        title={field.title}
        extra={field.computed ? 'Read-only: set by the server when saved' : 'Read-only'}
      />
      <TableCell>
        <span className="frp-hdr-fixed">
          {field.storage === 'bytes' ? `${field.width} bytes` : cells.decimal}
        </span>
      </TableCell>
      <TableCell>
        <span className="frp-hdr-fixed">{cells.hex}</span>
      </TableCell>
    </TableRow>
  );
}

/** A row across the three columns: a bar (a label and its button) and what shows below it. */
function BarRow({
  rowClass,
  cellClass,
  below = null,
  children,
}: {
  rowClass: string;
  cellClass: string;
  below?: ReactNode;
  children: ReactNode;
}) {
  return (
    <TableRow className={rowClass}>
      <TableCell as="th" scope="row" colSpan={3} className={cellClass}>
        <div className="frp-hdr-section__bar">{children}</div>
        {below}
      </TableCell>
    </TableRow>
  );
}

/** A list's first row: its name, how many entries it has, + Add entry, and the server's error on it. */
export function EditorListRow({
  field,
  error,
  readOnly,
  onAdd,
}: {
  field: ListField;
  error: string | undefined;
  readOnly: boolean;
  onAdd: () => void;
}) {
  return (
    <BarRow
      rowClass="frp-hdr-section"
      cellClass="frp-hdr-name"
      below={error ? <p className="frp-hdr-msg frp-hdr-msg--error">{error}</p> : null}
    >
      <span className="frp-hdr-name__label" title={field.title}>
        {field.name}
        {field.title ? (
          <span className="frp-hdr-info" role="img" aria-label={field.title} title={field.title}>
            i
          </span>
        ) : null}
        <span className="frp-muted">
          {field.value.length} of {field.maxEntries} entries
        </span>
      </span>
      <Button
        size="small"
        isDisabled={readOnly || field.value.length >= field.maxEntries}
        onClick={onAdd}
        // WCAG 2.5.3: the accessible name starts with the visible text
        aria-label={`+ Add entry to ${field.name}`}
      >
        + Add entry
      </Button>
    </BarRow>
  );
}

/** The first row of a list entry: Entry n and Delete. */
export function EditorEntryRow({
  list,
  index,
  readOnly,
  onDelete,
}: {
  list: string;
  index: number;
  readOnly: boolean;
  onDelete: () => void;
}) {
  return (
    <BarRow rowClass="frp-hdr-entry" cellClass="frp-hdr-name frp-hdr-name--member">
      <span className="frp-hdr-name__label">Entry {index + 1}</span>
      <Button
        size="small"
        variation="link"
        colorTheme="error"
        isDisabled={readOnly}
        onClick={onDelete}
        aria-label={`Delete entry ${index + 1} of ${list}`}
      >
        Delete
      </Button>
    </BarRow>
  );
}
