import { assertNever } from '@shared/domain/assert-never';
import {
  formatHex,
  newListEntry,
  parseDecimalInput,
  parseHexInput,
} from '@shared/domain/header/header-display';
import type {
  Header,
  HeaderError,
  HeaderField,
  ListField,
  UintType,
} from '@shared/domain/header/header-schema';

/** What an input holds while it differs from the stored value: a blank cell, or the text being typed. */
export interface Draft {
  dec: string;
  hex: string;
  /** blocks Continue: the cell is blank */
  error?: string;
  /** the last keystroke was refused (not a number, above the maximum); the value did not change */
  notice?: string;
}

export type Drafts = Record<string, Draft>;

/** Where a value lives: a top-level field, a member of a group, or a member of one list entry. */
export type ValueTarget =
  | { field: string }
  | { field: string; member: string }
  | { field: string; index: number; member: string };

/** Why the server refused the header, with the errors that name no row on screen. */
export interface Refusal {
  message: string;
  unplaced: HeaderError[];
}

/** The editor of one loaded header: values, drafts of the inputs, the server's per-field errors. */
export interface HeaderEditorState {
  fields: HeaderField[];
  drafts: Drafts;
  /** the server's errors by field path (`Package Id`, `Device Model Id.Model Id`, `Items[0].Mask`) */
  errors: Record<string, string>;
  refusal: Refusal | null;
  /** React keys of each list's entries: they stay with an entry when one before it is deleted */
  entryKeys: Record<string, number[]>;
  nextKey: number;
  saving: boolean;
}

/** What typing into an input does: the new value (absent when refused or blank) and the input's draft. */
export interface Typed {
  value?: number;
  draft: Draft;
}

export type HeaderEditorAction =
  | { type: 'typed'; path: string; target: ValueTarget; typed: Typed }
  | { type: 'value'; path: string; target: ValueTarget; value: number }
  /** undefined: the input shows the stored value again */
  | { type: 'draft'; path: string; draft: Draft | undefined }
  | { type: 'addEntry'; list: string }
  | { type: 'deleteEntry'; list: string; index: number }
  | { type: 'saving'; saving: boolean }
  /** edits kept in this browser, restored: the editor starts again from them */
  | { type: 'restore'; header: Header }
  | { type: 'refused'; refusal: Refusal; errors?: Record<string, string> };

export const NUMBER_REQUIRED = 'Value must be a number';

/** The state of an editor opened on `header`. */
export function initialEditorState(header: Header): HeaderEditorState {
  let nextKey = 1;
  const entryKeys = Object.fromEntries(
    header.fields
      .filter((f): f is ListField => f.type === 'list')
      .map((f) => [f.name, f.value.map(() => nextKey++)]),
  );
  return { fields: header.fields, drafts: {}, errors: {}, refusal: null, entryKeys, nextKey, saving: false };
}

/** The path of a value, as the server names it in its errors. */
export function pathOf(target: ValueTarget): string {
  if (!('member' in target)) return target.field;
  if (!('index' in target)) return `${target.field}.${target.member}`;
  return `${target.field}[${target.index}].${target.member}`;
}

const dropPrefix = <T>(record: Record<string, T>, prefix: string): Record<string, T> =>
  Object.fromEntries(Object.entries(record).filter(([k]) => !k.startsWith(prefix)));

/** Replaces field `name` of a header with `update(field)`. */
const mapField = (fields: HeaderField[], name: string, update: (f: HeaderField) => HeaderField) =>
  fields.map((f) => (f.name === name ? update(f) : f));

function withValue(fields: HeaderField[], target: ValueTarget, value: number): HeaderField[] {
  return mapField(fields, target.field, (f) => {
    if (!('member' in target)) return { ...f, value } as HeaderField;
    if (!('index' in target))
      return f.type === 'group' ? { ...f, value: { ...f.value, [target.member]: value } } : f;
    return f.type === 'list'
      ? {
          ...f,
          value: f.value.map((e, i) => (i === target.index ? { ...e, [target.member]: value } : e)),
        }
      : f;
  });
}

function setValue(state: HeaderEditorState, path: string, target: ValueTarget, value: number) {
  // a changed value clears the server's error on it
  const errors = state.errors[path] ? dropPrefix(state.errors, path) : state.errors;
  return { ...state, errors, fields: withValue(state.fields, target, value) };
}

function setDraft(state: HeaderEditorState, path: string, draft: Draft | undefined): HeaderEditorState {
  const drafts = { ...state.drafts };
  if (draft) drafts[path] = draft;
  else delete drafts[path];
  return { ...state, drafts };
}

/** Adding or deleting entries renumbers them: in-progress text and errors of that list are dropped. */
function resetList(state: HeaderEditorState, name: string): HeaderEditorState {
  return {
    ...state,
    drafts: dropPrefix(state.drafts, `${name}[`),
    errors: dropPrefix(dropPrefix(state.errors, `${name}[`), name),
  };
}

function changeList(
  state: HeaderEditorState,
  name: string,
  entries: (list: ListField) => ListField['value'],
  keys: (keys: number[]) => number[],
): HeaderEditorState {
  const reset = resetList(state, name);
  return {
    ...reset,
    fields: mapField(reset.fields, name, (f) => (f.type === 'list' ? { ...f, value: entries(f) } : f)),
    entryKeys: { ...reset.entryKeys, [name]: keys(reset.entryKeys[name] ?? []) },
  };
}

/** The header editor's rules, without React: every change of its state is one of these actions. */
export function headerEditorReducer(state: HeaderEditorState, action: HeaderEditorAction): HeaderEditorState {
  switch (action.type) {
    case 'typed': {
      const { value, draft } = action.typed;
      const next = value === undefined ? state : setValue(state, action.path, action.target, value);
      return setDraft(next, action.path, draft);
    }
    case 'value':
      return setValue(state, action.path, action.target, action.value);
    case 'draft':
      return setDraft(state, action.path, action.draft);
    case 'addEntry':
      return {
        ...changeList(
          state,
          action.list,
          (f) => [...f.value, newListEntry(f)],
          (keys) => [...keys, state.nextKey],
        ),
        nextKey: state.nextKey + 1,
      };
    case 'deleteEntry':
      return changeList(
        state,
        action.list,
        (f) => f.value.filter((_, i) => i !== action.index),
        (keys) => keys.filter((_, i) => i !== action.index),
      );
    case 'saving':
      return { ...state, saving: action.saving };
    case 'restore':
      return initialEditorState(action.header);
    case 'refused':
      return { ...state, refusal: action.refusal, errors: action.errors ?? state.errors };
    default:
      return assertNever(action, 'header editor action');
  }
}

/** Continue is blocked while any input is blank. */
export const hasBlank = (state: HeaderEditorState): boolean =>
  Object.values(state.drafts).some((d) => d.error);

/** Every path a server error can name, for placing it on its row. */
export function fieldPaths(fields: HeaderField[]): Set<string> {
  const out = new Set<string>();
  for (const f of fields) {
    out.add(f.name);
    if (f.type === 'group') for (const m of f.template) out.add(`${f.name}.${m.name}`);
    if (f.type === 'list')
      f.value.forEach((_, i) => {
        for (const m of f.template) out.add(`${f.name}[${i}].${m.name}`);
      });
  }
  return out;
}

/** The server's per-field errors on their rows (several on one row joined by '; '), the rest apart. */
export function placeErrors(
  fields: HeaderField[],
  headerErrors: HeaderError[],
): { placed: Record<string, string>; unplaced: HeaderError[] } {
  const placed: Record<string, string> = {};
  const unplaced: HeaderError[] = [];
  const known = fieldPaths(fields);
  for (const e of headerErrors) {
    if (known.has(e.field))
      placed[e.field] = placed[e.field] ? `${placed[e.field]}; ${e.message}` : e.message;
    else unplaced.push(e);
  }
  return { placed, unplaced };
}

/** What the Decimal and HEX inputs show now. */
type Shown = { dec: string; hex: string; error?: string };

const refused = (shown: Shown, message: string): Typed => ({
  draft: { dec: shown.dec, hex: shown.hex, error: shown.error, notice: `Not accepted: ${message}` },
});

/** Typing `text` into the Decimal input (spec §5): input beyond the type's maximum is refused. */
export function typeDecimal(text: string, type: UintType, shown: Shown): Typed {
  if (text.trim() === '') return { draft: { dec: '', hex: '', error: NUMBER_REQUIRED } };
  const parsed = parseDecimalInput(text, type);
  if ('error' in parsed) return refused(shown, parsed.error);
  return { value: parsed.value, draft: { dec: text.trim(), hex: formatHex(parsed.value, type) } };
}

/** Typing `text` into the HEX input (spec §5); `0x` alone counts as blank. */
export function typeHex(text: string, type: UintType, shown: Shown): Typed {
  if (/^\s*(0x)?\s*$/i.test(text)) return { draft: { dec: '', hex: text.trim(), error: NUMBER_REQUIRED } };
  const parsed = parseHexInput(text, type);
  if ('error' in parsed) return refused(shown, parsed.error);
  return { value: parsed.value, draft: { dec: String(parsed.value), hex: text.trim() } };
}
