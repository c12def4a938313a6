import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generatePackageSchema, rejectSchema } from '../api/contracts/packages';
import { forbiddenCharacter, headerSafe, normalizeName, normalizeNote, textProblem } from './text-rules';

/** Every character the rule must refuse, one code point each. */
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const FORBIDDEN_CODES = [
  ...range(0x00, 0x1f),
  ...range(0x7f, 0x9f),
  0x061c,
  0x200e,
  0x200f,
  ...range(0x202a, 0x202e),
  ...range(0x2066, 0x2069),
  ...range(0x200b, 0x200d),
  0x2060,
  0xfeff,
  0x2028,
  0x2029,
];
const forbidden = fc.constantFrom(...FORBIDDEN_CODES.map((c) => String.fromCharCode(c)));
const forbiddenInNotes = forbidden.filter((c) => c !== '\n' && c !== '\r');
/** Visible text: letters of many scripts, digits, punctuation, emoji; nothing the rule refuses. */
const visible = fc
  .string({ unit: 'grapheme', maxLength: 40 })
  .filter((s) => !FORBIDDEN_CODES.some((c) => s.includes(String.fromCharCode(c))));

describe('forbiddenCharacter', () => {
  it('accepts visible text of any script as a name and as a note', () => {
    fc.assert(
      fc.property(visible, (s) => {
        expect(forbiddenCharacter(s, 'name')).toBeNull();
        expect(forbiddenCharacter(s, 'note')).toBeNull();
      }),
    );
  });

  it('finds a control, bidirectional or zero-width character wherever it sits in a name', () => {
    fc.assert(
      fc.property(visible, forbidden, visible, (a, bad, b) => {
        expect(forbiddenCharacter(`${a}${bad}${b}`, 'name')).toBe(bad);
      }),
    );
  });

  it('lets notes keep LF and CRLF line breaks but nothing else of the list', () => {
    fc.assert(
      fc.property(visible, visible, fc.constantFrom('\n', '\r\n'), (a, b, br) => {
        expect(forbiddenCharacter(`${a}${br}${b}`, 'note')).toBeNull();
      }),
    );
    fc.assert(
      fc.property(visible, forbiddenInNotes, visible, (a, bad, b) => {
        expect(forbiddenCharacter(`${a}\n${bad}${b}`, 'note')).toBe(bad);
      }),
    );
    expect(forbiddenCharacter('line one\rline two', 'note')).toBe('\r');
  });

  it('refuses unpaired surrogates but keeps pairs (emoji)', () => {
    expect(forbiddenCharacter('fw \ud83d\ude80 v2', 'name')).toBeNull();
    expect(forbiddenCharacter('fw \ud83d v2', 'name')).toBe('\ud83d');
    expect(forbiddenCharacter('fw \ude80', 'name')).toBe('\ude80');
  });
});

describe('textProblem', () => {
  it('names the field and the code point it found', () => {
    expect(textProblem('Package name', 'fw\u202Egnp.exe', 'name')).toBe(
      'Package name must not contain control, bidirectional or invisible characters; found U+202E',
    );
    expect(textProblem('Note', 'a\u0000', 'note')).toMatch(/line breaks are allowed\); found U\+0000$/);
    expect(textProblem('Note', 'a\nb', 'note')).toBeNull();
  });
});

describe('normalisation', () => {
  it('gives one form to names that differ only in composition, and is idempotent', () => {
    expect(normalizeName('Cafe\u0301')).toBe(normalizeName('Caf\u00e9'));
    fc.assert(
      fc.property(visible, (s) => {
        expect(normalizeName(normalizeName(s))).toBe(normalizeName(s));
        expect(normalizeName(s)).toBe(normalizeName(s.normalize('NFD')));
      }),
    );
  });

  it('stores CRLF line breaks of notes as LF', () => {
    expect(normalizeNote('a\r\nb\nc')).toBe('a\nb\nc');
  });
});

describe('headerSafe', () => {
  it('never lets a line break or forbidden character into a header, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        const h = headerSafe(s);
        expect(forbiddenCharacter(h, 'name')).toBeNull();
        expect(Array.from(h).length).toBeLessThanOrEqual(200);
      }),
    );
    expect(headerSafe('Package signed: x\r\nBcc: victim@example.com')).toBe(
      'Package signed: x Bcc: victim@example.com',
    );
  });
});

describe('contracts', () => {
  const base = { packageType: 'DEV_UNSIGNED', note: 'ok' };

  it('refuse a package name with a forbidden character with a clear message', () => {
    fc.assert(
      fc.property(visible, forbidden, (a, bad) => {
        const r = generatePackageSchema.safeParse({ ...base, packageName: `pkg${a}${bad}` });
        expect(r.success).toBe(false);
        expect(r.error?.issues[0]?.message).toMatch(/^Package name must not contain control/);
      }),
    );
  });

  it('store names in NFC and notes with LF line breaks', () => {
    const r = generatePackageSchema.parse({ ...base, packageName: ' Cafe\u0301 ', note: 'a\r\nb' });
    expect(r.packageName).toBe('Caf\u00e9');
    expect(r.note).toBe('a\nb');
  });

  it('refuse a rejection reason holding a bidirectional override but keep its line breaks', () => {
    expect(rejectSchema.safeParse({ 'rejection-reason': 'no\u202Etxt' }).success).toBe(false);
    expect(rejectSchema.parse({ 'rejection-reason': 'line 1\nline 2' })['rejection-reason']).toBe(
      'line 1\nline 2',
    );
  });
});
