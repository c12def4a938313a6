import { displayCells } from './header/header-display';
import type { EntryField, EntryValue, HeaderField } from './header/header-schema';

/**
 * The header part of "Changes since the last approved package" (decision 245): scalar fields and
 * group members as old → new with Decimal and HEX cells, list fields (the criteria) entry by entry.
 */

/** One value as the header editor shows it: Decimal and HEX (spec §5), and an enum's option label. */
export interface ValueCells {
  decimal: string;
  hex: string;
  label?: string;
}

/** A header field (or a group member) whose value differs; `old`/`new` null when the field is only on one side. */
export interface HeaderFieldChange {
  /** `Field` or `Group.Member` */
  path: string;
  type: string;
  /** a value the server computes (sizes, CRC): it follows the payload and the other fields */
  computed?: boolean;
  old: ValueCells | null;
  new: ValueCells | null;
}

/** A list entry as member → cells, in template order. */
export interface EntryCells {
  index: number;
  values: { name: string; cells: ValueCells }[];
}

/** A list field (e.g. the patch criteria) whose entries differ: compared by position. */
export interface ListChange {
  field: string;
  oldCount: number;
  newCount: number;
  added: EntryCells[];
  removed: EntryCells[];
  changed: { index: number; changes: HeaderFieldChange[] }[];
}

interface FieldLike {
  name: string;
  type: string;
}

function fieldsOf(header: unknown): HeaderField[] | null {
  if (typeof header !== 'object' || header === null) return null;
  const fields = (header as { fields?: unknown }).fields;
  return Array.isArray(fields) ? (fields as HeaderField[]) : null;
}

/** Decimal/HEX cells of a scalar value, and an enum's option label. */
export function cellsOf(field: HeaderField | EntryField, value: unknown): ValueCells {
  try {
    const cells = displayCells(field, value as number | string);
    if (field.type === 'enum') {
      const label = field.options.find((o) => o.value === value)?.label;
      return label === undefined ? cells : { ...cells, label };
    }
    return cells;
  } catch {
    return { decimal: String(value), hex: '' };
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function entryCells(template: EntryField[], entry: EntryValue, index: number): EntryCells {
  return { index, values: template.map((t) => ({ name: t.name, cells: cellsOf(t, entry[t.name]) })) };
}

/** Member-by-member changes of two entries (group values, or list entries at one position). */
function entryChanges(
  path: string,
  oldTemplate: EntryField[],
  newTemplate: EntryField[],
  oldEntry: EntryValue,
  newEntry: EntryValue,
): HeaderFieldChange[] {
  const out: HeaderFieldChange[] = [];
  const names = [...new Set([...newTemplate.map((t) => t.name), ...oldTemplate.map((t) => t.name)])];
  for (const name of names) {
    const nt = newTemplate.find((t) => t.name === name);
    const ot = oldTemplate.find((t) => t.name === name);
    const ov = ot ? oldEntry[name] : undefined;
    const nv = nt ? newEntry[name] : undefined;
    if (ot && nt && same(ov, nv) && ot.type === nt.type) continue;
    out.push({
      path: `${path}.${name}`,
      type: (nt ?? ot)?.type ?? 'uint8',
      old: ot && ov !== undefined ? cellsOf(ot, ov) : null,
      new: nt && nv !== undefined ? cellsOf(nt, nv) : null,
    });
  }
  return out;
}

function scalarChange(o: HeaderField | undefined, n: HeaderField | undefined): HeaderFieldChange | null {
  if (o && n && o.type === n.type && same(o.value, n.value)) {
    if (o.type !== 'enum' || n.type !== 'enum' || same(o.options, n.options)) return null;
  }
  const f = (n ?? o) as HeaderField;
  const computed = f.type === 'fixed' && f.computed !== undefined;
  return {
    path: f.name,
    type: f.type === 'fixed' ? `fixed ${f.storage}` : f.type,
    ...(computed ? { computed: true } : {}),
    old: o ? cellsOf(o, o.value) : null,
    new: n ? cellsOf(n, n.value) : null,
  };
}

function listChange(o: HeaderField | undefined, n: HeaderField | undefined): ListChange | null {
  const ol = o?.type === 'list' ? o : undefined;
  const nl = n?.type === 'list' ? n : undefined;
  const oldEntries = ol?.value ?? [];
  const newEntries = nl?.value ?? [];
  const oldTemplate = ol?.template ?? nl?.template ?? [];
  const newTemplate = nl?.template ?? oldTemplate;
  const change: ListChange = {
    field: (nl ?? ol)?.name ?? '',
    oldCount: oldEntries.length,
    newCount: newEntries.length,
    added: [],
    removed: [],
    changed: [],
  };
  const common = Math.min(oldEntries.length, newEntries.length);
  for (let i = 0; i < common; i++) {
    const changes = entryChanges(
      `${change.field}[${i}]`,
      oldTemplate,
      newTemplate,
      oldEntries[i] ?? {},
      newEntries[i] ?? {},
    );
    if (changes.length) change.changed.push({ index: i, changes });
  }
  for (let i = common; i < newEntries.length; i++)
    change.added.push(entryCells(newTemplate, newEntries[i] ?? {}, i));
  for (let i = common; i < oldEntries.length; i++)
    change.removed.push(entryCells(oldTemplate, oldEntries[i] ?? {}, i));
  const empty = !change.added.length && !change.removed.length && !change.changed.length;
  return empty ? null : change;
}

/** Header differences: scalar fields and group members as old → new, list fields entry by entry. */
export function compareHeaders(
  oldHeader: unknown,
  newHeader: unknown,
): { header: HeaderFieldChange[]; lists: ListChange[]; compared: boolean } {
  const of = fieldsOf(oldHeader);
  const nf = fieldsOf(newHeader);
  if (!of || !nf) return { header: [], lists: [], compared: false };
  const header: HeaderFieldChange[] = [];
  const lists: ListChange[] = [];
  const byName = (fs: FieldLike[], name: string) => fs.find((f) => f.name === name);
  // the new package's order first, then fields only the old header had
  const names = [...new Set([...nf.map((f) => f.name), ...of.map((f) => f.name)])];
  for (const name of names) {
    const o = byName(of, name) as HeaderField | undefined;
    const n = byName(nf, name) as HeaderField | undefined;
    const kind = (n ?? o)?.type;
    if (kind === 'list' && (!o || !n || o.type === n.type)) {
      const c = listChange(o, n);
      if (c) lists.push(c);
    } else if (kind === 'group' && o?.type === 'group' && n?.type === 'group') {
      header.push(...entryChanges(name, o.template, n.template, o.value, n.value));
    } else if (kind === 'group' && (!o || !n)) {
      const g = (n ?? o) as Extract<HeaderField, { type: 'group' }>;
      for (const t of g.template)
        header.push({
          path: `${name}.${t.name}`,
          type: t.type,
          old: o ? cellsOf(t, g.value[t.name]) : null,
          new: n ? cellsOf(t, g.value[t.name]) : null,
        });
    } else {
      const c = scalarChange(o, n);
      if (c) header.push(c);
    }
  }
  return { header, lists, compared: true };
}
