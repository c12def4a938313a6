import * as z from 'zod';
import { assertNever } from '../assert-never';
import { BadRequestError } from '../errors';
import type { PackageType } from '../model/package';
import { crc32 } from './crc32';
import { encodedLength, HeaderFormatError, serializeHeader } from './header-codec';
import {
  type ComputedKind,
  type EntryField,
  type EntryValue,
  entryValueProblem,
  type Header,
  type HeaderError,
  type HeaderField,
  headerProblems,
  optionList,
  UINT_MAX,
} from './header-schema';
import { headerTemplate, PACKAGE_TYPE_CODES } from './header-template';

/**
 * The header edit rules (spec §5, DESIGN §3): what a submitted header may change, and the fields the
 * server computes. Pure, so the web can run the same checks before it sends anything.
 *
 * Fixed fields are server-owned. A submission may leave them out or echo them; a different value is
 * ignored (never stored) and reported in `ignored`, so an editor that shows stale computed values still
 * saves, and nobody can change the magic, the type, a size or the CRC through this door.
 * Editable fields left out keep their current value (PATCH semantics). A list is replaced as a whole.
 */

/** Loose shape of a submitted header: what `GET …/header` returned, edited. Values are checked by `validateHeaderUpdate`. */
export const headerUpdateSchema = z.object({
  fields: z.array(z.looseObject({ name: z.string(), value: z.unknown() })),
});
export type HeaderUpdate = z.infer<typeof headerUpdateSchema>;

export type HeaderUpdateResult =
  | { ok: true; header: Header; ignored: string[] }
  | { ok: false; errors: HeaderError[] };

/** Inputs of the computed fields. */
export interface ComputeContext {
  packageType: PackageType;
  /** bytes of the resource file (the patch data) */
  resourceSizeBytes: number;
  /** bytes of the model metadata (the patch configuration); 0 or absent for a patch */
  metadataSizeBytes?: number;
}

const shown = (raw: unknown): string => {
  const s = JSON.stringify(raw);
  return s === undefined ? String(raw) : s.length > 40 ? `${s.slice(0, 37)}...` : s;
};

/** A number from JSON: a number, or a string of decimal digits or 0x-prefixed hex (what the editor's two columns hold). */
function toNumber(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw !== 'string') return undefined;
  const s = raw.trim();
  if (/^\d+$/.test(s)) return Number(s);
  if (/^0x[0-9a-f]+$/i.test(s)) return Number.parseInt(s.slice(2), 16);
  return undefined;
}

/** Converts a submitted value for an entry field, accepting an enum option's label as well as its value. */
function coerce(f: EntryField, raw: unknown): { value: number } | { error: string } {
  if (f.type === 'enum' && typeof raw === 'string' && toNumber(raw) === undefined) {
    const label = raw.trim().toUpperCase();
    const o = f.options.find((x) => x.label.toUpperCase() === label);
    return o ? { value: o.value } : { error: `${shown(raw)} is not one of the options ${optionList(f)}` };
  }
  const n = toNumber(raw);
  if (n === undefined) return { error: `${shown(raw)} is not a number` };
  const p = entryValueProblem(f, n);
  return p ? { error: p } : { value: n };
}

function coerceEntry(
  path: string,
  template: EntryField[],
  raw: unknown,
  base: EntryValue | undefined,
  errors: HeaderError[],
): EntryValue {
  const out: EntryValue = { ...base };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    errors.push({ field: path, message: `must be an object with ${template.map((t) => t.name).join(', ')}` });
    return out;
  }
  const e = raw as Record<string, unknown>;
  for (const k of Object.keys(e))
    if (!template.some((t) => t.name === k))
      errors.push({ field: `${path}.${k}`, message: 'is not part of the template' });
  for (const t of template) {
    if (!Object.hasOwn(e, t.name)) {
      if (!base) errors.push({ field: `${path}.${t.name}`, message: 'is missing' });
      continue;
    }
    const c = coerce(t, e[t.name]);
    if ('error' in c) errors.push({ field: `${path}.${t.name}`, message: c.error });
    else out[t.name] = c.value;
  }
  return out;
}

function submittedFields(submitted: unknown, errors: HeaderError[]): unknown[] | undefined {
  let doc = submitted;
  if (typeof doc === 'string') {
    try {
      doc = JSON.parse(doc);
    } catch {
      errors.push({ field: 'header', message: 'is not valid JSON' });
      return undefined;
    }
  }
  if (Array.isArray(doc)) return doc;
  if (typeof doc === 'object' && doc !== null && Array.isArray((doc as { fields?: unknown }).fields))
    return (doc as { fields: unknown[] }).fields;
  errors.push({
    field: 'header',
    message: 'must be a JSON document { "fields": [ { "name": ..., "value": ... } ] }',
  });
  return undefined;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Applies a submitted header (object, list of fields, or JSON text) to `current`, checking every value
 * against the type, maximum, options and templates of `current`. Returns the new header, with Header
 * Size and Header CRC recomputed, or every problem found; never throws for bad input.
 */
export function validateHeaderUpdate(current: Header, submitted: unknown): HeaderUpdateResult {
  const broken = headerProblems(current);
  if (broken.length) throw new HeaderFormatError(broken);
  const errors: HeaderError[] = [];
  const ignored: string[] = [];
  const items = submittedFields(submitted, errors);
  if (!items) return { ok: false, errors };

  const byName = new Map(current.fields.map((f) => [f.name, f]));
  const updates = new Map<string, HeaderField>();
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (typeof item !== 'object' || item === null || typeof (item as { name?: unknown }).name !== 'string') {
      errors.push({ field: `fields[${i}]`, message: 'must be an object with a name and a value' });
      return;
    }
    const { name, value, type } = item as { name: string; value?: unknown; type?: unknown };
    const cur = byName.get(name);
    if (!cur) {
      errors.push({ field: name, message: 'is not a field of this header' });
      return;
    }
    if (seen.has(name)) {
      errors.push({ field: name, message: 'is sent twice' });
      return;
    }
    seen.add(name);
    if (type !== undefined && type !== cur.type) {
      errors.push({ field: name, message: `is a ${cur.type} field, not ${shown(type)}` });
      return;
    }
    if (value === undefined) {
      errors.push({ field: name, message: 'has no value' });
      return;
    }
    const next = applyValue(cur, value, errors);
    if (next === 'ignored') {
      if (!sameValue(value, cur.value)) ignored.push(name);
    } else if (next) updates.set(name, next);
  });
  if (errors.length) return { ok: false, errors };
  const header = sealHeader({ fields: current.fields.map((f) => updates.get(f.name) ?? structuredClone(f)) });
  return { ok: true, header, ignored };
}

function applyValue(
  cur: HeaderField,
  raw: unknown,
  errors: HeaderError[],
): HeaderField | 'ignored' | undefined {
  switch (cur.type) {
    case 'fixed':
      return 'ignored';
    case 'uint8':
    case 'uint16':
    case 'uint32':
    case 'enum': {
      const c = coerce(cur, raw);
      if ('error' in c) {
        errors.push({ field: cur.name, message: c.error });
        return undefined;
      }
      return { ...structuredClone(cur), value: c.value };
    }
    case 'group': {
      const before = errors.length;
      const value = coerceEntry(cur.name, cur.template, raw, cur.value, errors);
      return errors.length > before ? undefined : { ...structuredClone(cur), value };
    }
    case 'list': {
      if (!Array.isArray(raw)) {
        errors.push({ field: cur.name, message: 'must be a list of entries' });
        return undefined;
      }
      if (raw.length > cur.maxEntries) {
        errors.push({
          field: cur.name,
          message: `has ${raw.length} entries; at most ${cur.maxEntries} are allowed`,
        });
        return undefined;
      }
      const before = errors.length;
      const value = raw.map((e, i) => coerceEntry(`${cur.name}[${i}]`, cur.template, e, undefined, errors));
      return errors.length > before ? undefined : { ...structuredClone(cur), value };
    }
    default:
      return assertNever(cur, 'header field type');
  }
}

/** Like `validateHeaderUpdate`, but throws BadRequestError (400) listing every problem, with them under `headerErrors`. */
export function validateHeaderUpdateOrThrow(
  current: Header,
  submitted: unknown,
): { header: Header; ignored: string[] } {
  const r = validateHeaderUpdate(current, submitted);
  if (!r.ok)
    throw new BadRequestError(
      `Invalid header: ${r.errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
      {
        headerErrors: r.errors,
      },
    );
  return { header: r.header, ignored: r.ignored };
}

function setComputed(header: Header, kind: ComputedKind, value: number): void {
  for (const f of header.fields)
    if (f.type === 'fixed' && f.storage !== 'bytes' && f.computed === kind) f.value = value;
}

/** Recomputes Header Size and Header CRC, which depend on every other byte; returns a new header. */
export function sealHeader(header: Header): Header {
  const h = structuredClone(header);
  setComputed(h, 'headerSize', encodedLength(h));
  setComputed(h, 'headerCrc', 0);
  const bytes = serializeHeader(h);
  setComputed(h, 'headerCrc', crc32(bytes.subarray(0, bytes.length - 4)));
  return h;
}

function sizeOf(what: string, n: number | undefined): number {
  const v = n ?? 0;
  if (!Number.isInteger(v) || v < 0 || v > UINT_MAX.uint32)
    throw new BadRequestError(
      `The ${what} is ${v} bytes; a package header describes at most ${UINT_MAX.uint32} bytes`,
    );
  return v;
}

/**
 * Fills the fields the server computes: Type from the package type, Patch Data Size from the resource,
 * Patch Config Size from the metadata, then Header Size and Header CRC. Returns a new header; throws
 * BadRequestError for a size a uint32 cannot hold and HeaderFormatError for a broken header.
 */
export function computeFields(header: Header, ctx: ComputeContext): Header {
  const broken = headerProblems(header);
  if (broken.length) throw new HeaderFormatError(broken);
  const code = PACKAGE_TYPE_CODES[ctx.packageType];
  if (code === undefined) throw new BadRequestError(`Unknown package type ${shown(ctx.packageType)}`);
  const h = structuredClone(header);
  setComputed(h, 'packageType', code);
  setComputed(h, 'patchDataSize', sizeOf('resource', ctx.resourceSizeBytes));
  setComputed(h, 'patchConfigSize', sizeOf('metadata', ctx.metadataSizeBytes));
  return sealHeader(h);
}

/** The header of a new package: the server's template with its computed fields filled in. */
export function newPackageHeader(ctx: ComputeContext): Header {
  return computeFields(headerTemplate(), ctx);
}
