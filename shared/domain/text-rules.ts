/**
 * Which characters user-typed text may hold (docs/decisions/077-visible-text-only.md). Names (package,
 * resource, DCC device id) and notes end up in lists, XML packages, audit events and mail: a control
 * character can break a mail header or a log line, a bidirectional override or a zero-width character
 * makes two names look alike or one name read backwards. So these are refused, never silently removed:
 *
 * - C0 controls U+0000–U+001F (CR, LF, NUL, TAB …), DEL U+007F and C1 controls U+0080–U+009F;
 * - bidirectional marks, embeddings, overrides and isolates: U+061C, U+200E, U+200F, U+202A–U+202E,
 *   U+2066–U+2069;
 * - zero-width characters: U+200B–U+200D, U+2060, U+FEFF;
 * - line and paragraph separators U+2028, U+2029 and unpaired surrogates (not encodable as UTF-8).
 *
 * Notes may keep line breaks: LF, and CRLF (stored as LF). A lone CR is refused.
 */
export type TextKind = 'name' | 'note';

// Built from a string: the regex-literal lint refuses control characters, which are what this matches.
const FORBIDDEN = new RegExp(
  [
    '[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200b-\\u200f\\u202a-\\u202e\\u2060\\u2066-\\u2069\\u2028\\u2029\\ufeff]',
    '[\\ud800-\\udbff](?![\\udc00-\\udfff])',
    '(?<![\\ud800-\\udbff])[\\udc00-\\udfff]',
  ].join('|'),
);

/** The first character a text of this kind may not hold, as it was found, or null when it is clean. */
export function forbiddenCharacter(text: string, kind: TextKind): string | null {
  const scanned = kind === 'note' ? text.replace(/\r?\n/g, '') : text;
  const m = FORBIDDEN.exec(scanned);
  return m ? m[0] : null;
}

/** `U+000A`-style code of a character, for messages. */
export function codePointLabel(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The clear message for a refused text, or null when the text is acceptable. */
export function textProblem(label: string, text: string, kind: TextKind): string | null {
  const ch = forbiddenCharacter(text, kind);
  if (ch === null) return null;
  const allowed = kind === 'note' ? ' (line breaks are allowed)' : '';
  return `${label} must not contain control, bidirectional or invisible characters${allowed}; found ${codePointLabel(ch)}`;
}

/** A name as it is stored and compared: Unicode NFC, so names that only differ in composition are one name. */
export function normalizeName(name: string): string {
  return name.normalize('NFC');
}

/** A note as it is stored: CRLF line breaks become LF, otherwise unchanged (NFC as well). */
export function normalizeNote(note: string): string {
  return note.replace(/\r\n/g, '\n').normalize('NFC');
}

/**
 * Text made safe for one mail header line whatever it holds (stored data from before these rules, or a
 * rule missed): every forbidden character and line break becomes a space, runs of spaces collapse and the
 * result is cut to `max` characters. For headers only; bodies keep their text.
 */
export function headerSafe(text: string, max = 200): string {
  const global = new RegExp(FORBIDDEN.source, 'g');
  const flat = Array.from(text.replace(global, ' ').replace(/\s+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max - 1).join('')}…` : flat.join('');
}
