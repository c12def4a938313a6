import type { EntryField, EntryValue, HeaderField, ListField, UintType } from './header-schema';
import { UINT_MAX, UINT_WIDTH } from './header-schema';

/**
 * Helpers for the header editor (spec §2.8, §5: Name, Decimal and HEX columns; maximums uint8 255,
 * uint16 65535, uint32 4294967295). They show the value as it is stored on the wire.
 */

export type ParsedInput = { value: number } | { error: string };

/** `value` as zero-padded upper-case hex of a `type`, e.g. 0x00FF for a uint16. */
export function formatHex(value: number, type: UintType): string {
  return `0x${value
    .toString(16)
    .toUpperCase()
    .padStart(UINT_WIDTH[type] * 2, '0')}`;
}

/** The Decimal and HEX cells of a scalar field (group and list members included); for a 64-bit mask, the mask. */
export function displayCells(
  field: HeaderField | EntryField,
  value: number | string = field.value as number,
): {
  decimal: string;
  hex: string;
} {
  if (field.type === 'fixed' && field.storage === 'bytes') {
    const hex = typeof value === 'string' ? value : '';
    return { decimal: '', hex: `0x${hex.toUpperCase()}` };
  }
  const n = Number(value);
  if (field.type === 'enum' && field.storage === 'mask64') {
    const mask = 1n << BigInt(n);
    return { decimal: mask.toString(10), hex: `0x${mask.toString(16).toUpperCase().padStart(16, '0')}` };
  }
  const type: UintType =
    field.type === 'enum'
      ? 'uint8'
      : field.type === 'fixed'
        ? (field.storage as UintType)
        : (field.type as UintType);
  return { decimal: String(n), hex: formatHex(n, type) };
}

function inRange(n: number, type: UintType): ParsedInput {
  if (n > UINT_MAX[type]) return { error: `Value is above the maximum ${UINT_MAX[type]} of a ${type}` };
  return { value: n };
}

/** Reads the Decimal column: digits only, at most the type's maximum. */
export function parseDecimalInput(text: string, type: UintType): ParsedInput {
  const s = text.trim();
  if (!/^\d+$/.test(s)) return { error: 'Value must be a number' };
  return inRange(Number(s), type);
}

/** Reads the HEX column: hex digits with or without 0x, at most the type's maximum. */
export function parseHexInput(text: string, type: UintType): ParsedInput {
  const s = text.trim().replace(/^0x/i, '');
  if (!/^[0-9a-f]+$/i.test(s)) return { error: 'Value must be a hex number' };
  return inRange(Number.parseInt(s, 16), type);
}

/** A new list entry made from the list's template defaults (the editor's "add" button). */
export function newListEntry(list: ListField): EntryValue {
  return Object.fromEntries(list.template.map((t) => [t.name, t.value]));
}
