import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/decisions/README.md is the index of the decision records: one row per record with its status
 * (accepted, amended by NNN, superseded by NNN). A record added without a row, a row whose record is gone,
 * or a status naming a record that does not exist fails here, so "decision NNN" in a comment always leads
 * a reader to a record and to what replaced it.
 */
const DIR = resolve(__dirname, '../docs/decisions');
const records = readdirSync(DIR)
  .filter((f) => f !== 'README.md')
  .sort();
const index = readFileSync(join(DIR, 'README.md'), 'utf8');

interface Row {
  number: string;
  file: string;
  status: string;
}
const rows: Row[] = [...index.matchAll(/^\| (\d{3}) \| \[[^\]]+\]\(([^)]+)\) \| ([^|]+) \|$/gm)].map((m) => ({
  number: m[1]!,
  file: m[2]!,
  status: m[3]!.trim(),
}));
const STATUS = /^(?:accepted|(?:amended|superseded) by (\d{3}(?:, \d{3})*))$/;
const numberOf = new Map(records.map((f) => [f.slice(0, 3), f]));

describe('the decision index', () => {
  it('every file of docs/decisions is a record named NNN-title.md', () => {
    expect(records.length).toBeGreaterThan(0);
    expect(records.filter((f) => !/^\d{3}-[a-z0-9-]+\.md$/.test(f))).toEqual([]);
    expect(numberOf.size).toBe(records.length);
  });

  it('every row of the table is a well-formed row (no row the pattern above skips)', () => {
    const tableLines = index.split('\n').filter((l) => /^\| \d/.test(l));
    expect(tableLines.length).toBe(rows.length);
  });

  it('lists every record exactly once, and only records that exist', () => {
    const listed = rows.map((r) => r.file);
    expect(listed.filter((f, i) => listed.indexOf(f) !== i)).toEqual([]);
    expect(records.filter((f) => !listed.includes(f))).toEqual([]);
    expect(listed.filter((f) => !records.includes(f))).toEqual([]);
  });

  it("each row's number is its record's number", () => {
    expect(rows.filter((r) => !r.file.startsWith(`${r.number}-`))).toEqual([]);
  });

  it('every status is accepted, amended by or superseded by existing, later records', () => {
    const bad = rows.flatMap((r) => {
      const m = STATUS.exec(r.status);
      if (!m) return [`${r.number}: unknown status "${r.status}"`];
      const later = m[1]?.split(', ') ?? [];
      return later
        .filter((n) => !numberOf.has(n) || n <= r.number)
        .map((n) => `${r.number}: "${r.status}" names ${n}, which is not a later record`);
    });
    expect(bad).toEqual([]);
  });

  it('a record whose own heading says it was superseded is indexed as superseded', () => {
    const heading = (f: string) => readFileSync(join(DIR, f), 'utf8').split('\n')[0]!;
    const said = rows.filter((r) => /\(superseded by/i.test(heading(r.file)));
    expect(said.length).toBeGreaterThan(0);
    expect(said.filter((r) => !r.status.startsWith('superseded by'))).toEqual([]);
  });
});
