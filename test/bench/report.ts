/** One line of the bench table: a figure beside its budget (DESIGN §7). Benchmarks report; they never fail a build. */
export type Verdict = 'ok' | 'MISS' | 'info' | 'not measured';

export interface Row {
  section: string;
  name: string;
  value: string;
  target: string;
  verdict: Verdict;
}

/** A figure without a budget of its own (context beside a measured row). */
export const info = (section: string, name: string, value: string, target = '—'): Row => ({
  section,
  name,
  value,
  target,
  verdict: 'info',
});

/** A row for something that could not be measured here, with the reason as its value. */
export const notMeasured = (section: string, name: string, why: string, target: string): Row => ({
  section,
  name,
  value: why,
  target,
  verdict: 'not measured',
});

export const verdict = (ok: boolean): Verdict => (ok ? 'ok' : 'MISS');

export const mb = (bytes: number, digits = 1): string => `${(bytes / 1024 / 1024).toFixed(digits)} MB`;
export const kb = (bytes: number, digits = 1): string => `${(bytes / 1024).toFixed(digits)} KB`;
export const ms = (v: number): string => `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`;

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Nearest-rank percentile (p in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/** The table, as Markdown so the same text goes into docs/performance.md. */
export function formatTable(rows: readonly Row[]): string {
  const head = ['section', 'measurement', 'value', 'target', 'verdict'];
  const body = rows.map((r) => [r.section, r.name, r.value, r.target, r.verdict]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

/** Progress lines go to stderr, so stdout carries only the table. */
export const progress = (line: string): void => {
  process.stderr.write(`[bench] ${line}\n`);
};

type Cleanup = () => Promise<void> | void;
const cleanups = new Set<Cleanup>();

/** Registers what must be undone if the bench is interrupted (a running stack); returns its removal. */
export function onInterrupt(f: Cleanup): () => void {
  cleanups.add(f);
  return () => cleanups.delete(f);
}

/** Runs every registered cleanup once (signal handler of run.ts). */
export async function runCleanups(): Promise<void> {
  const all = [...cleanups];
  cleanups.clear();
  await Promise.allSettled(all.map(async (f) => f()));
}

/** BENCH_QUICK=1: fewer runs and shorter loads, for working on the bench itself (figures are rough). */
export const QUICK = process.env.BENCH_QUICK === '1';
