import * as z from 'zod';
import { assertNever } from '../assert-never';

/**
 * The package header as a JSON document (spec §3, DESIGN §3): an ordered list of named fields. Order is
 * the byte order on the wire, which is why the document is a list and not an object keyed by name.
 * Every field carries what a generic editor needs to render it (type, limits, options, template), so the
 * web header editor needs no knowledge of any particular field.
 */

/** Largest value of each unsigned integer type (spec §5, §9). */
export const UINT_MAX = { uint8: 255, uint16: 65535, uint32: 4294967295 } as const;
export type UintType = keyof typeof UINT_MAX;
export const UINT_TYPES = ['uint8', 'uint16', 'uint32'] as const satisfies readonly UintType[];
/** Bytes each unsigned integer type takes on the wire. */
export const UINT_WIDTH: Record<UintType, number> = { uint8: 1, uint16: 2, uint32: 4 };

/** How an enum is stored: its option value as one byte, or `mask64`: 8 bytes with only bit `value` set. */
export const ENUM_STORAGES = ['uint8', 'mask64'] as const;
export type EnumStorage = (typeof ENUM_STORAGES)[number];
/** Largest option value each enum storage can hold. */
export const ENUM_STORAGE_MAX: Record<EnumStorage, number> = { uint8: 255, mask64: 63 };

/** Fixed fields whose value the server derives; anything else fixed is a constant of the template. */
export const COMPUTED_KINDS = [
  'packageType',
  'headerSize',
  'patchConfigSize',
  'patchDataSize',
  'headerCrc',
] as const;
export type ComputedKind = (typeof COMPUTED_KINDS)[number];

/** Most entries a list may declare: the count is one byte on the wire. */
export const LIST_COUNT_MAX = 255;

const fieldName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9 _-]+$/, { error: 'Field names use letters, digits, spaces, _ and - only' });
const title = z.string().max(500).optional();

const uintField = <T extends UintType>(type: T) =>
  z.object({
    name: fieldName,
    title,
    type: z.literal(type),
    value: z
      .number()
      .int()
      .min(0)
      .max(UINT_MAX[type] as number),
  });
export const uint8FieldSchema = uintField('uint8');
export const uint16FieldSchema = uintField('uint16');
export const uint32FieldSchema = uintField('uint32');
export type UintField = z.infer<
  typeof uint8FieldSchema | typeof uint16FieldSchema | typeof uint32FieldSchema
>;

export const enumOptionSchema = z.object({
  label: z.string().min(1).max(64),
  value: z.number().int().min(0),
});
export type EnumOption = z.infer<typeof enumOptionSchema>;

export const enumFieldSchema = z.object({
  name: fieldName,
  title,
  type: z.literal('enum'),
  storage: z.enum(ENUM_STORAGES),
  options: z.array(enumOptionSchema).min(1).max(256),
  /** the chosen option's `value` (for `mask64`, the number of the bit that is set) */
  value: z.number().int().min(0),
});
export type EnumField = z.infer<typeof enumFieldSchema>;

const fixedBase = {
  name: fieldName,
  title,
  type: z.literal('fixed'),
  computed: z.enum(COMPUTED_KINDS).optional(),
};
export const fixedUintFieldSchema = z.object({
  ...fixedBase,
  storage: z.enum(UINT_TYPES),
  /** bytes on the wire; always UINT_WIDTH[storage] */
  width: z.number().int().min(1).max(4),
  value: z.number().int().min(0).max(UINT_MAX.uint32),
});
export const fixedBytesFieldSchema = z.object({
  ...fixedBase,
  storage: z.literal('bytes'),
  width: z.number().int().min(1).max(256),
  /** the bytes as lowercase hex, two digits a byte */
  value: z.string().regex(/^(?:[0-9a-f]{2})*$/, { error: 'Fixed bytes are written as lowercase hex' }),
});
export const fixedFieldSchema = z.discriminatedUnion('storage', [
  fixedUintFieldSchema,
  fixedBytesFieldSchema,
]);
export type FixedUintField = z.infer<typeof fixedUintFieldSchema>;
export type FixedBytesField = z.infer<typeof fixedBytesFieldSchema>;
export type FixedField = FixedUintField | FixedBytesField;

/** A field that may appear in a group or a list entry: an integer or an enum. */
export const entryFieldSchema = z.discriminatedUnion('type', [
  uint8FieldSchema,
  uint16FieldSchema,
  uint32FieldSchema,
  enumFieldSchema,
]);
export type EntryField = z.infer<typeof entryFieldSchema>;

/** Values of a group or of one list entry, keyed by the template field names. */
export const entryValueSchema = z.record(z.string(), z.number());
export type EntryValue = z.infer<typeof entryValueSchema>;

/** The fields of a group or of one list entry: integers and enums, 1 to 32 of them. */
const entryTemplateSchema = z.array(entryFieldSchema).min(1).max(32);

export const groupFieldSchema = z.object({
  name: fieldName,
  title,
  type: z.literal('group'),
  /** the member fields; their `value` is unused here (the group's `value` holds the data) */
  template: entryTemplateSchema,
  value: entryValueSchema,
});
export type GroupField = z.infer<typeof groupFieldSchema>;

export const listFieldSchema = z.object({
  name: fieldName,
  title,
  type: z.literal('list'),
  /** the shape of one entry; each template field's `value` is the default of a new entry */
  template: entryTemplateSchema,
  maxEntries: z.number().int().min(0).max(LIST_COUNT_MAX),
  value: z.array(entryValueSchema),
});
export type ListField = z.infer<typeof listFieldSchema>;

export const headerFieldSchema = z.discriminatedUnion('type', [
  uint8FieldSchema,
  uint16FieldSchema,
  uint32FieldSchema,
  enumFieldSchema,
  fixedFieldSchema,
  groupFieldSchema,
  listFieldSchema,
]);
export type HeaderField = z.infer<typeof headerFieldSchema>;
export type HeaderFieldType = HeaderField['type'];

/** One problem found in a header: `field` is a path such as `Device Model Id.Model Id` or `Patch Criteria Items[2].Operator`. */
export interface HeaderError {
  field: string;
  message: string;
}

/** Why `value` cannot be stored in entry field `f`, or undefined when it can. */
export function entryValueProblem(f: EntryField, value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'is not a number';
  if (f.type === 'enum') {
    if (!f.options.some((o) => o.value === value))
      return `${value} is not one of the options ${optionList(f)}`;
    return undefined;
  }
  if (!Number.isInteger(value)) return `${value} is not a whole number`;
  if (value < 0) return `${value} is negative; ${f.type} values start at 0`;
  if (value > UINT_MAX[f.type]) return `${value} is above the maximum ${UINT_MAX[f.type]} of a ${f.type}`;
  return undefined;
}

/** The options of an enum as a readable list: `EQUAL (0), NOT_EQUAL (1), …`. */
export function optionList(f: EnumField): string {
  const shown = f.options.slice(0, 8).map((o) => `${o.label} (${o.value})`);
  return f.options.length > 8 ? `${shown.join(', ')}, … (${f.options.length} in all)` : shown.join(', ');
}

function templateProblems(path: string, template: EntryField[], out: HeaderError[]): void {
  const seen = new Set<string>();
  for (const t of template) {
    if (seen.has(t.name)) out.push({ field: `${path}.${t.name}`, message: 'appears twice in the template' });
    seen.add(t.name);
    if (t.type === 'enum') enumDefinitionProblems(`${path}.${t.name}`, t, out);
    const p = entryValueProblem(t, t.value);
    if (p) out.push({ field: `${path}.${t.name}`, message: `default ${p}` });
  }
}

function enumDefinitionProblems(path: string, f: EnumField, out: HeaderError[]): void {
  const max = ENUM_STORAGE_MAX[f.storage];
  const values = new Set<number>();
  const labels = new Set<string>();
  for (const o of f.options) {
    if (o.value > max)
      out.push({ field: path, message: `option ${o.label} (${o.value}) does not fit ${f.storage}` });
    if (values.has(o.value) || labels.has(o.label))
      out.push({ field: path, message: `option ${o.label} (${o.value}) is defined twice` });
    values.add(o.value);
    labels.add(o.label);
  }
}

/** Problems of an entry (group value or list entry) against its template: missing, unknown or bad values. */
export function entryProblems(path: string, template: EntryField[], entry: unknown): HeaderError[] {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return [{ field: path, message: `must be an object with ${template.map((t) => t.name).join(', ')}` }];
  const out: HeaderError[] = [];
  const e = entry as Record<string, unknown>;
  for (const t of template) {
    if (!Object.hasOwn(e, t.name)) out.push({ field: `${path}.${t.name}`, message: 'is missing' });
    else {
      const p = entryValueProblem(t, e[t.name]);
      if (p) out.push({ field: `${path}.${t.name}`, message: p });
    }
  }
  for (const k of Object.keys(e))
    if (!template.some((t) => t.name === k))
      out.push({ field: `${path}.${k}`, message: 'is not part of the template' });
  return out;
}

/**
 * Everything zod's shape check cannot see: unique names, values within their type and options, fixed
 * widths, entries against templates, and a CRC that is the last field (it covers every byte before it).
 */
export function headerProblems(header: Header): HeaderError[] {
  const out: HeaderError[] = [];
  const names = new Set<string>();
  let crcCount = 0;
  header.fields.forEach((f, i) => {
    if (names.has(f.name)) out.push({ field: f.name, message: 'appears twice in the header' });
    names.add(f.name);
    switch (f.type) {
      case 'uint8':
      case 'uint16':
      case 'uint32':
        break;
      case 'enum': {
        enumDefinitionProblems(f.name, f, out);
        const p = entryValueProblem(f, f.value);
        if (p) out.push({ field: f.name, message: p });
        break;
      }
      case 'fixed':
        if (f.storage === 'bytes') {
          if (f.value.length !== f.width * 2)
            out.push({
              field: f.name,
              message: `must hold exactly ${f.width} bytes (${f.width * 2} hex digits)`,
            });
          if (f.computed) out.push({ field: f.name, message: 'fixed bytes cannot be computed' });
        } else {
          if (f.width !== UINT_WIDTH[f.storage])
            out.push({
              field: f.name,
              message: `a ${f.storage} is ${UINT_WIDTH[f.storage]} bytes wide, not ${f.width}`,
            });
          if (f.value > UINT_MAX[f.storage])
            out.push({
              field: f.name,
              message: `${f.value} is above the maximum ${UINT_MAX[f.storage]} of a ${f.storage}`,
            });
          if (f.computed === 'headerCrc') {
            crcCount++;
            if (f.storage !== 'uint32')
              out.push({ field: f.name, message: 'a CRC-32 is stored as a uint32' });
            if (i !== header.fields.length - 1)
              out.push({
                field: f.name,
                message: 'the header CRC must be the last field: it covers every byte before it',
              });
          }
        }
        break;
      case 'group':
        templateProblems(f.name, f.template, out);
        out.push(...entryProblems(f.name, f.template, f.value));
        break;
      case 'list':
        templateProblems(f.name, f.template, out);
        if (f.value.length > f.maxEntries)
          out.push({
            field: f.name,
            message: `has ${f.value.length} entries; at most ${f.maxEntries} are allowed`,
          });
        f.value.forEach((e, j) => {
          out.push(...entryProblems(`${f.name}[${j}]`, f.template, e));
        });
        break;
      default:
        assertNever(f, 'header field type');
    }
  });
  if (crcCount > 1) out.push({ field: 'Header CRC', message: 'a header has at most one CRC field' });
  return out;
}

/** A complete, self-consistent header document (what the server stores and `GET …/header` returns). */
export const headerSchema = z
  .object({ fields: z.array(headerFieldSchema).min(1).max(128) })
  .superRefine((h, ctx) => {
    for (const p of headerProblems(h))
      ctx.addIssue({ code: 'custom', message: `${p.field}: ${p.message}`, path: ['fields'] });
  });
export interface Header {
  fields: HeaderField[];
}

/** Parse and check a header document; throws a ZodError when it is not one. */
export function parseHeader(input: unknown): Header {
  return headerSchema.parse(input);
}
