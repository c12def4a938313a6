import { assertNever } from '../assert-never';
import { crc32 } from './crc32';
import {
  type EntryField,
  type EntryValue,
  type Header,
  type HeaderError,
  type HeaderField,
  headerProblems,
  optionList,
  UINT_WIDTH,
  type UintType,
} from './header-schema';
import { headerTemplate, PACKAGE_TYPE_CODES } from './header-template';

/**
 * Header JSON ⇄ bytes (DESIGN §3, docs/package-format.md): little-endian, fields in template order,
 * groups inline, lists as a one-byte count followed by the entries, no padding, the CRC last. Plain
 * Uint8Array/DataView so the browser can use it too.
 */

/** A header that cannot be encoded or bytes that are not a valid header; `problems` lists each finding. */
export class HeaderFormatError extends Error {
  readonly problems: HeaderError[];
  constructor(problems: HeaderError[]) {
    super(problems.map((p) => `${p.field}: ${p.message}`).join('; '));
    this.name = 'HeaderFormatError';
    this.problems = problems;
  }
}

/** One run of bytes in the encoded header, for documentation, tests and hex dumps. */
export interface LayoutEntry {
  /** field path, e.g. `Device Model Id.Model Id`, `Patch Criteria Items.count`, `Patch Criteria Items[0].Mask` */
  field: string;
  offset: number;
  width: number;
  /** uint8 | uint16 | uint32 | mask64 | bytes */
  encoding: string;
  /** the field's value: a number (for mask64, the bit number), or lowercase hex for fixed bytes */
  value: number | string;
  /** the label of the chosen option, for enums */
  option?: string;
}

function entryWidth(t: EntryField): number {
  if (t.type === 'enum') return t.storage === 'mask64' ? 8 : 1;
  return UINT_WIDTH[t.type];
}

function entryEncoding(t: EntryField): string {
  return t.type === 'enum' ? t.storage : t.type;
}

/** Where every byte of `header` goes when encoded; lists contribute their count byte and their entries. */
export function headerLayout(header: Header): LayoutEntry[] {
  const out: LayoutEntry[] = [];
  let offset = 0;
  const push = (field: string, width: number, encoding: string, value: number | string, option?: string) => {
    out.push(
      option === undefined
        ? { field, offset, width, encoding, value }
        : { field, offset, width, encoding, value, option },
    );
    offset += width;
  };
  const pushEntry = (path: string, t: EntryField, value: number) =>
    push(path, entryWidth(t), entryEncoding(t), value, t.type === 'enum' ? optionLabel(t, value) : undefined);
  for (const f of header.fields) {
    switch (f.type) {
      case 'uint8':
      case 'uint16':
      case 'uint32':
      case 'enum':
        pushEntry(f.name, f, f.value);
        break;
      case 'fixed':
        push(f.name, f.width, f.storage, f.value);
        break;
      case 'group':
        for (const t of f.template) pushEntry(`${f.name}.${t.name}`, t, f.value[t.name]!);
        break;
      case 'list':
        push(`${f.name}.count`, 1, 'uint8', f.value.length);
        f.value.forEach((e, i) => {
          for (const t of f.template) pushEntry(`${f.name}[${i}].${t.name}`, t, e[t.name]!);
        });
        break;
      default:
        assertNever(f, 'header field type');
    }
  }
  return out;
}

function optionLabel(f: Extract<EntryField, { type: 'enum' }>, value: number): string {
  return f.options.find((o) => o.value === value)?.label ?? '?';
}

/** Bytes `header` takes when encoded. */
export function encodedLength(header: Header): number {
  const layout = headerLayout(header);
  const last = layout[layout.length - 1];
  return last ? last.offset + last.width : 0;
}

// a new integer type is a compile error here (assertNever), never silently a uint32
function writeUint(view: DataView, offset: number, type: UintType, value: number): void {
  switch (type) {
    case 'uint8':
      view.setUint8(offset, value);
      return;
    case 'uint16':
      view.setUint16(offset, value, true);
      return;
    case 'uint32':
      view.setUint32(offset, value, true);
      return;
    default:
      assertNever(type, 'integer type');
  }
}

function writeEntry(view: DataView, offset: number, t: EntryField, value: number): number {
  if (t.type === 'enum') {
    if (t.storage === 'mask64') {
      view.setBigUint64(offset, 1n << BigInt(value), true);
      return offset + 8;
    }
    view.setUint8(offset, value);
    return offset + 1;
  }
  writeUint(view, offset, t.type, value);
  return offset + UINT_WIDTH[t.type];
}

function writeEntryValues(view: DataView, offset: number, template: EntryField[], value: EntryValue): number {
  let o = offset;
  for (const t of template) o = writeEntry(view, o, t, value[t.name]!);
  return o;
}

/** Encodes without any check; callers make sure the header is valid. */
export function serializeHeader(header: Header): Uint8Array {
  const bytes = new Uint8Array(encodedLength(header));
  const view = new DataView(bytes.buffer);
  let o = 0;
  for (const f of header.fields) {
    switch (f.type) {
      case 'uint8':
      case 'uint16':
      case 'uint32':
        writeUint(view, o, f.type, f.value);
        o += UINT_WIDTH[f.type];
        break;
      case 'enum':
        o = writeEntry(view, o, f, f.value);
        break;
      case 'fixed':
        if (f.storage === 'bytes') {
          for (let i = 0; i < f.width; i++)
            bytes[o + i] = Number.parseInt(f.value.slice(i * 2, i * 2 + 2), 16);
        } else writeUint(view, o, f.storage, f.value);
        o += f.width;
        break;
      case 'group':
        o = writeEntryValues(view, o, f.template, f.value);
        break;
      case 'list':
        view.setUint8(o, f.value.length);
        o += 1;
        for (const e of f.value) o = writeEntryValues(view, o, f.template, e);
        break;
      default:
        assertNever(f, 'header field type');
    }
  }
  return bytes;
}

const hex32 = (n: number) => `0x${n.toString(16).toUpperCase().padStart(8, '0')}`;

/**
 * Encodes a valid, computed header. Throws HeaderFormatError if the header breaks a rule or if its
 * computed Header Size or Header CRC are stale (run `computeFields` first): bytes leaving the server
 * always describe themselves correctly.
 */
export function encodeHeader(header: Header): Uint8Array {
  const problems = headerProblems(header);
  if (problems.length) throw new HeaderFormatError(problems);
  const bytes = serializeHeader(header);
  const stale: HeaderError[] = [];
  for (const f of header.fields) {
    if (f.type !== 'fixed' || f.storage === 'bytes') continue;
    if (f.computed === 'headerSize' && f.value !== bytes.length)
      stale.push({
        field: f.name,
        message: `is ${f.value} but the header is ${bytes.length} bytes; run computeFields first`,
      });
    if (f.computed === 'headerCrc') {
      const crc = crc32(bytes.subarray(0, bytes.length - 4));
      if (f.value !== crc)
        stale.push({
          field: f.name,
          message: `is ${hex32(f.value)} but the bytes give ${hex32(crc)}; run computeFields first`,
        });
    }
  }
  if (stale.length) throw new HeaderFormatError(stale);
  return bytes;
}

/** Reads header bytes with bounds checks, collecting the first problem as a HeaderFormatError. */
class Reader {
  private readonly view: DataView;
  offset = 0;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  need(field: string, width: number): void {
    if (this.offset + width > this.bytes.length)
      throw new HeaderFormatError([
        {
          field,
          message: `the header ends at byte ${this.bytes.length}, inside this field (offset ${this.offset}, ${width} bytes)`,
        },
      ]);
  }
  uint(field: string, type: UintType): number {
    const w = UINT_WIDTH[type];
    this.need(field, w);
    const o = this.offset;
    this.offset += w;
    switch (type) {
      case 'uint8':
        return this.view.getUint8(o);
      case 'uint16':
        return this.view.getUint16(o, true);
      case 'uint32':
        return this.view.getUint32(o, true);
      default:
        return assertNever(type, 'integer type');
    }
  }
  mask64(field: string): bigint {
    this.need(field, 8);
    const v = this.view.getBigUint64(this.offset, true);
    this.offset += 8;
    return v;
  }
  hex(field: string, width: number): string {
    this.need(field, width);
    let s = '';
    for (let i = 0; i < width; i++) s += this.bytes[this.offset + i]!.toString(16).padStart(2, '0');
    this.offset += width;
    return s;
  }
}

function readEntry(r: Reader, path: string, t: EntryField): number {
  const at = r.offset;
  if (t.type !== 'enum') return r.uint(path, t.type);
  let value: number;
  if (t.storage === 'mask64') {
    const mask = r.mask64(path);
    // exactly one bit set: non-zero and a power of two
    if (mask === 0n || (mask & (mask - 1n)) !== 0n)
      throw new HeaderFormatError([
        {
          field: path,
          message: `mask 0x${mask.toString(16).padStart(16, '0')} at offset ${at} must have exactly one bit set`,
        },
      ]);
    value = mask.toString(2).length - 1;
  } else value = r.uint(path, 'uint8');
  if (!t.options.some((o) => o.value === value))
    throw new HeaderFormatError([
      { field: path, message: `${value} at offset ${at} is not one of the options ${optionList(t)}` },
    ]);
  return value;
}

function readEntryValues(r: Reader, path: string, template: EntryField[]): EntryValue {
  const v: EntryValue = {};
  for (const t of template) v[t.name] = readEntry(r, `${path}.${t.name}`, t);
  return v;
}

function readField(r: Reader, f: HeaderField): HeaderField {
  const at = r.offset;
  switch (f.type) {
    case 'uint8':
    case 'uint16':
    case 'uint32':
      return { ...f, value: r.uint(f.name, f.type) };
    case 'enum':
      return { ...f, value: readEntry(r, f.name, f) };
    case 'fixed': {
      if (f.storage === 'bytes') {
        const value = r.hex(f.name, f.width);
        if (value !== f.value)
          throw new HeaderFormatError([
            { field: f.name, message: `bytes at offset ${at} are ${value}, expected ${f.value}` },
          ]);
        return { ...f, value };
      }
      const value = r.uint(f.name, f.storage);
      if (!f.computed && value !== f.value)
        throw new HeaderFormatError([
          {
            field: f.name,
            message: `is ${hex32(value)} at offset ${at}, expected the constant ${hex32(f.value)}: not a version 1 package header`,
          },
        ]);
      if (f.computed === 'packageType' && !Object.values(PACKAGE_TYPE_CODES).includes(value))
        throw new HeaderFormatError([
          { field: f.name, message: `${value} at offset ${at} is not a package type code` },
        ]);
      return { ...f, value };
    }
    case 'group':
      return { ...f, value: readEntryValues(r, f.name, f.template) };
    case 'list': {
      const count = r.uint(`${f.name}.count`, 'uint8');
      if (count > f.maxEntries)
        throw new HeaderFormatError([
          {
            field: f.name,
            message: `count ${count} at offset ${at} is above the maximum of ${f.maxEntries} entries`,
          },
        ]);
      const value: EntryValue[] = [];
      for (let i = 0; i < count; i++) value.push(readEntryValues(r, `${f.name}[${i}]`, f.template));
      return { ...f, value };
    }
    default:
      return assertNever(f, 'header field type');
  }
}

/**
 * Decodes header bytes against `template` (the server's by default) and checks them: the CRC first (so a
 * damaged byte is reported as such), then every field, the Header Size, and that no byte is left over.
 * Returns the header document; throws HeaderFormatError naming the first problem.
 */
export function decodeHeader(bytes: Uint8Array, template: Header = headerTemplate()): Header {
  const crcField = template.fields.find((f) => f.type === 'fixed' && f.computed === 'headerCrc');
  if (crcField) {
    if (bytes.length < 4)
      throw new HeaderFormatError([
        { field: crcField.name, message: `${bytes.length} bytes are too short for a header` },
      ]);
    const stored = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(
      bytes.length - 4,
      true,
    );
    const computed = crc32(bytes.subarray(0, bytes.length - 4));
    if (stored !== computed)
      throw new HeaderFormatError([
        {
          field: crcField.name,
          message: `is ${hex32(stored)} but the ${bytes.length - 4} bytes before it give ${hex32(computed)}: the header is damaged`,
        },
      ]);
  }
  const r = new Reader(bytes);
  const fields = template.fields.map((f) => readField(r, f));
  if (r.offset !== bytes.length)
    throw new HeaderFormatError([
      {
        field: 'header',
        message: `${bytes.length - r.offset} bytes follow the last field (offset ${r.offset})`,
      },
    ]);
  for (const f of fields)
    if (f.type === 'fixed' && f.computed === 'headerSize' && f.value !== bytes.length)
      throw new HeaderFormatError([
        { field: f.name, message: `says ${f.value} bytes but the header is ${bytes.length}` },
      ]);
  return { fields };
}
