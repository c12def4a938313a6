import {
  Alert,
  Button,
  Input,
  SelectField,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
} from '@aws-amplify/ui-react';
import {
  displayCells,
  formatHex,
  newListEntry,
  parseDecimalInput,
  parseHexInput,
} from '@shared/domain/header/header-display';
import type {
  EntryField,
  EnumField,
  Header,
  HeaderError,
  HeaderField,
  ListField,
  UintType,
} from '@shared/domain/header/header-schema';
import { UINT_MAX } from '@shared/domain/header/header-schema';
import { MSG } from '@shared/messages';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useApiQuery } from '@/hooks/use-api-query';
import { popups } from '@/lib/popup/popup-store';
import { useSession } from '@/lib/session/session-store';
import { getHeader, saveHeader } from '../api/header';
import { creationTitle } from '../utils/package-flow';
import { type HeaderDepth, HeaderNameCell } from './header-name-cell';
import { CreationSteps, PackageStrip } from './package-fields';
import { NoPackage, PackagePage } from './package-page';

/** What an input holds while it differs from the stored value: a blank cell, or the text being typed. */
interface Draft {
  dec: string;
  hex: string;
  /** blocks Continue: the cell is blank */
  error?: string;
  /** the last keystroke was refused (not a number, above the maximum); the value did not change */
  notice?: string;
}

type Drafts = Record<string, Draft>;

const NUMBER_REQUIRED = 'Value must be a number';

/** Inputs of one integer: Decimal and HEX kept in step; input beyond the type's maximum is refused (spec §5). */
function UintCells({
  path,
  label,
  type,
  value,
  draft,
  readOnly,
  invalid,
  onValue,
  onDraft,
}: {
  path: string;
  label: string;
  type: UintType;
  value: number;
  draft: Draft | undefined;
  readOnly: boolean;
  invalid: boolean;
  onValue: (value: number) => void;
  onDraft: (draft: Draft | undefined) => void;
}) {
  const dec = draft?.dec ?? String(value);
  const hex = draft?.hex ?? formatHex(value, type);
  const refuse = (message: string) =>
    onDraft({ dec, hex, error: draft?.error, notice: `Not accepted: ${message}` });

  const onDecimal = (text: string) => {
    if (text.trim() === '') return onDraft({ dec: '', hex: '', error: NUMBER_REQUIRED });
    const parsed = parseDecimalInput(text, type);
    if ('error' in parsed) return refuse(parsed.error);
    onValue(parsed.value);
    onDraft({ dec: text.trim(), hex: formatHex(parsed.value, type) });
  };
  const onHex = (text: string) => {
    if (/^\s*(0x)?\s*$/i.test(text)) return onDraft({ dec: '', hex: text.trim(), error: NUMBER_REQUIRED });
    const parsed = parseHexInput(text, type);
    if ('error' in parsed) return refuse(parsed.error);
    onValue(parsed.value);
    onDraft({ dec: String(parsed.value), hex: text.trim() });
  };
  // leaving a cell shows the stored value again, unless the cell is blank
  const onBlur = () => {
    if (draft && !draft.error) onDraft(undefined);
  };
  const describedBy = draft?.error || draft?.notice ? `${path}-msg` : undefined;
  return (
    <>
      <TableCell>
        <Input
          className="frp-hdr-input"
          size="small"
          inputMode="numeric"
          aria-label={`${label} (decimal)`}
          aria-describedby={describedBy}
          value={dec}
          hasError={Boolean(draft?.error) || invalid}
          isReadOnly={readOnly}
          onChange={(event) => onDecimal(event.target.value)}
          onBlur={onBlur}
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
          className="frp-hdr-input"
          size="small"
          aria-label={`${label} (HEX)`}
          aria-describedby={describedBy}
          value={hex}
          hasError={Boolean(draft?.error) || invalid}
          isReadOnly={readOnly}
          onChange={(event) => onHex(event.target.value)}
          onBlur={onBlur}
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

interface RowProps {
  path: string;
  label: string;
  depth: HeaderDepth;
  drafts: Drafts;
  errors: Record<string, string>;
  readOnly: boolean;
  onValue: (value: number) => void;
  onDraft: (path: string, draft: Draft | undefined) => void;
}

/** One editable integer or enum (a top-level field, a group member or a list entry member). */
function ValueRow({ field, value, ...p }: RowProps & { field: EntryField; value: number }) {
  const serverError = p.errors[p.path];
  return (
    <TableRow>
      <HeaderNameCell
        name={field.name}
        title={field.title}
        depth={p.depth}
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
          label={p.label}
          field={field}
          value={value}
          readOnly={p.readOnly}
          invalid={Boolean(serverError)}
          onValue={p.onValue}
        />
      ) : (
        <UintCells
          path={p.path}
          label={p.label}
          type={field.type}
          value={value}
          draft={p.drafts[p.path]}
          readOnly={p.readOnly}
          invalid={Boolean(serverError)}
          onValue={p.onValue}
          onDraft={(d) => p.onDraft(p.path, d)}
        />
      )}
    </TableRow>
  );
}

/** Spec §3: fixed fields are read-only; those the server computes say so. */
function FixedRow({ field }: { field: Extract<HeaderField, { type: 'fixed' }> }) {
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

/** Replaces field `name` of a header with `update(field)`. */
function mapField(
  fields: HeaderField[],
  name: string,
  update: (f: HeaderField) => HeaderField,
): HeaderField[] {
  return fields.map((f) => (f.name === name ? update(f) : f));
}

const dropPrefix = <T,>(record: Record<string, T>, prefix: string): Record<string, T> =>
  Object.fromEntries(Object.entries(record).filter(([k]) => !k.startsWith(prefix)));

let nextKey = 1;
const keysFor = (header: Header): Record<string, number[]> =>
  Object.fromEntries(
    header.fields
      .filter((f): f is ListField => f.type === 'list')
      .map((f) => [f.name, f.value.map(() => nextKey++)]),
  );

/** The editor of one loaded header: values, drafts of the inputs, the server's per-field errors. */
function HeaderEditor({
  initial,
  packageId,
  readOnly,
}: {
  initial: Header;
  packageId: string;
  readOnly: boolean;
}) {
  const navigate = useNavigate();
  const [fields, setFields] = useState<HeaderField[]>(initial.fields);
  const [drafts, setDrafts] = useState<Drafts>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<{ message: string; unplaced: HeaderError[] } | null>(null);
  const [entryKeys, setEntryKeys] = useState<Record<string, number[]>>(() => keysFor(initial));
  const [saving, setSaving] = useState(false);

  const blank = Object.values(drafts).some((d) => d.error);

  const onDraft = (path: string, draft: Draft | undefined) => {
    setDrafts((all) => {
      const next = { ...all };
      if (draft) next[path] = draft;
      else delete next[path];
      return next;
    });
  };
  const touch = (path: string) => {
    if (errors[path]) setErrors((all) => dropPrefix(all, path));
  };

  const setTop = (name: string, value: number) => {
    touch(name);
    setFields((fs) => mapField(fs, name, (f) => ({ ...f, value }) as HeaderField));
  };
  const setMember = (name: string, member: string, value: number) => {
    touch(`${name}.${member}`);
    setFields((fs) =>
      mapField(fs, name, (f) => (f.type === 'group' ? { ...f, value: { ...f.value, [member]: value } } : f)),
    );
  };
  const setEntry = (name: string, index: number, member: string, value: number) => {
    touch(`${name}[${index}].${member}`);
    setFields((fs) =>
      mapField(fs, name, (f) =>
        f.type === 'list'
          ? { ...f, value: f.value.map((e, i) => (i === index ? { ...e, [member]: value } : e)) }
          : f,
      ),
    );
  };
  // adding or deleting entries renumbers them: in-progress text and errors of that list are dropped
  const resetList = (name: string) => {
    setDrafts((all) => dropPrefix(all, `${name}[`));
    setErrors((all) => dropPrefix(dropPrefix(all, `${name}[`), name));
  };
  const addEntry = (list: ListField) => {
    resetList(list.name);
    setFields((fs) =>
      mapField(fs, list.name, (f) =>
        f.type === 'list' ? { ...f, value: [...f.value, newListEntry(f)] } : f,
      ),
    );
    setEntryKeys((k) => ({ ...k, [list.name]: [...(k[list.name] ?? []), nextKey++] }));
  };
  const deleteEntry = (list: ListField, index: number) => {
    resetList(list.name);
    setFields((fs) =>
      mapField(fs, list.name, (f) =>
        f.type === 'list' ? { ...f, value: f.value.filter((_, i) => i !== index) } : f,
      ),
    );
    setEntryKeys((k) => ({ ...k, [list.name]: (k[list.name] ?? []).filter((_, i) => i !== index) }));
  };

  const save = async () => {
    if (blank || saving) return;
    setSaving(true);
    const result = await saveHeader(packageId, { fields });
    setSaving(false);
    if (result.ok) {
      navigate(paths.packages.dcc);
      return;
    }
    if (result.status === 400 && result.headerErrors.length > 0) {
      const placed: Record<string, string> = {};
      const unplaced: HeaderError[] = [];
      const known = new Set(Object.keys(pathsOf(fields)));
      for (const e of result.headerErrors) {
        if (known.has(e.field))
          placed[e.field] = placed[e.field] ? `${placed[e.field]}; ${e.message}` : e.message;
        else unplaced.push(e);
      }
      setErrors(placed);
      setRefusal({
        message: 'The server refused the header. Correct the marked fields and continue again.',
        unplaced,
      });
      return;
    }
    if (result.status === 400) {
      setRefusal({ message: result.errorMessage, unplaced: [] });
      return;
    }
    // 403 not the initiator, 409 no longer a draft: nothing here can fix it
    popups.show({ kind: 'warning', message: result.errorMessage, buttonLabel: MSG.close });
  };

  const common = { drafts, errors, readOnly, onDraft };

  return (
    <>
      {refusal ? (
        <Alert variation="error" heading="Header not saved" marginBottom="1rem" role="alert">
          {refusal.message}
          {refusal.unplaced.length > 0 ? (
            <ul>
              {refusal.unplaced.map((e) => (
                <li key={`${e.field}:${e.message}`}>
                  {e.field}: {e.message}
                </li>
              ))}
            </ul>
          ) : null}
        </Alert>
      ) : null}
      <div className="frp-table-wrap">
        <Table className="frp-table frp-header-table" size="small" aria-label="Package header">
          <TableHead>
            <TableRow>
              <TableCell as="th" scope="col">
                {MSG.colName}
              </TableCell>
              <TableCell as="th" scope="col">
                {MSG.colDecimal}
              </TableCell>
              <TableCell as="th" scope="col">
                {MSG.colHex}
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {fields.map((field) => {
              switch (field.type) {
                case 'fixed':
                  return <FixedRow key={field.name} field={field} />;
                case 'uint8':
                case 'uint16':
                case 'uint32':
                case 'enum':
                  return (
                    <ValueRow
                      key={field.name}
                      {...common}
                      path={field.name}
                      label={field.name}
                      depth="top"
                      field={field}
                      value={field.value}
                      onValue={(v) => setTop(field.name, v)}
                    />
                  );
                case 'group':
                  return [
                    <TableRow key={field.name} className="frp-hdr-section">
                      <HeaderNameCell name={field.name} title={field.title} colSpan={3} />
                    </TableRow>,
                    ...field.template.map((member) => (
                      <ValueRow
                        key={`${field.name}.${member.name}`}
                        {...common}
                        path={`${field.name}.${member.name}`}
                        label={`${field.name}, ${member.name}`}
                        depth="member"
                        field={member}
                        value={field.value[member.name] ?? member.value}
                        onValue={(v) => setMember(field.name, member.name, v)}
                      />
                    )),
                  ];
                case 'list':
                  return [
                    <TableRow key={field.name} className="frp-hdr-section">
                      <TableCell as="th" scope="row" colSpan={3} className="frp-hdr-name">
                        <div className="frp-hdr-section__bar">
                          <span className="frp-hdr-name__label" title={field.title}>
                            {field.name}
                            {field.title ? (
                              <span
                                className="frp-hdr-info"
                                role="img"
                                aria-label={field.title}
                                title={field.title}
                              >
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
                            onClick={() => addEntry(field)}
                            aria-label={`Add an entry to ${field.name}`}
                          >
                            + Add entry
                          </Button>
                        </div>
                        {errors[field.name] ? (
                          <p className="frp-hdr-msg frp-hdr-msg--error">{errors[field.name]}</p>
                        ) : null}
                      </TableCell>
                    </TableRow>,
                    ...field.value.flatMap((entry, index) => {
                      const key = entryKeys[field.name]?.[index] ?? index;
                      return [
                        <TableRow key={`${field.name}#${key}`} className="frp-hdr-entry">
                          <TableCell
                            as="th"
                            scope="row"
                            colSpan={3}
                            className="frp-hdr-name frp-hdr-name--member"
                          >
                            <div className="frp-hdr-section__bar">
                              <span className="frp-hdr-name__label">Entry {index + 1}</span>
                              <Button
                                size="small"
                                variation="link"
                                colorTheme="error"
                                isDisabled={readOnly}
                                onClick={() => deleteEntry(field, index)}
                                aria-label={`Delete entry ${index + 1} of ${field.name}`}
                              >
                                Delete
                              </Button>
                            </div>
                          </TableCell>
                        </TableRow>,
                        ...field.template.map((member) => (
                          <ValueRow
                            key={`${field.name}#${key}.${member.name}`}
                            {...common}
                            path={`${field.name}[${index}].${member.name}`}
                            label={`${field.name} entry ${index + 1}, ${member.name}`}
                            depth="entry"
                            field={member}
                            value={entry[member.name] ?? member.value}
                            onValue={(v) => setEntry(field.name, index, member.name, v)}
                          />
                        )),
                      ];
                    }),
                  ];
                default:
                  return null;
              }
            })}
          </TableBody>
        </Table>
      </div>
      <div className="frp-actions">
        {blank ? (
          <span className="frp-hdr-msg frp-hdr-msg--error" role="status">
            Fill in every value before you continue.
          </span>
        ) : null}
        <span className="frp-actions__spacer" />
        <Button onClick={() => navigate(paths.packages.list)} isDisabled={saving}>
          {MSG.cancel}
        </Button>
        <Button
          variation="primary"
          onClick={save}
          isDisabled={blank || readOnly}
          isLoading={saving}
          loadingText="Saving…"
        >
          {MSG.continue}
        </Button>
      </div>
    </>
  );
}

/** Every path a server error can name, for placing it on its row. */
function pathsOf(fields: HeaderField[]): Record<string, true> {
  const out: Record<string, true> = {};
  for (const f of fields) {
    out[f.name] = true;
    if (f.type === 'group') for (const m of f.template) out[`${f.name}.${m.name}`] = true;
    if (f.type === 'list')
      f.value.forEach((_, i) => {
        for (const m of f.template) out[`${f.name}[${i}].${m.name}`] = true;
      });
  }
  return out;
}

/**
 * Spec §2.8, §4.2 step 3: /packages/header edits the package's header (Name, Decimal and HEX); a
 * successful save moves to the DCC step. Only the initiator edits, and only while the package is a draft.
 */
export function HeaderEditorPage() {
  const { currentPackage: pkg, subHeader, user } = useSession();
  const query = useApiQuery(
    (signal) =>
      pkg
        ? getHeader(pkg.id, signal)
        : Promise.resolve({ ok: false as const, status: 0, error: { errorMessage: '' } }),
    [pkg?.id],
  );
  if (!pkg) return <NoPackage />;
  const editable = pkg.status === 'DRAFT' && pkg.initiator.id === user?.id;
  return (
    <PackagePage id="header-edit-title" title={subHeader || creationTitle(pkg.resourceStage)}>
      <CreationSteps current={2} />
      <PackageStrip pkg={pkg} />
      {editable ? null : (
        <Alert variation="info" marginBottom="1rem">
          {pkg.status === 'DRAFT'
            ? 'Only the initiator of this package can edit its header.'
            : 'This package was already sent for approval; its header can no longer change.'}
        </Alert>
      )}
      {query.data ? (
        <HeaderEditor key={pkg.id} initial={query.data} packageId={pkg.id} readOnly={!editable} />
      ) : query.loading ? (
        <p className="frp-muted">Loading the header…</p>
      ) : (
        <Alert variation="error">The header could not be loaded.</Alert>
      )}
    </PackagePage>
  );
}
