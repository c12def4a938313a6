import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { formatTable, notMeasured, progress, QUICK, type Row, runCleanups } from './report';

/**
 * `npm run bench`: measures the budgets of DESIGN §7 and prints one table. It reports figures beside
 * their targets and never fails on a missed target (benchmarks are not tests); it exits non-zero only
 * when the bench itself breaks. `--only <section>[,<section>]` runs some sections; `--json <file>` also
 * writes the rows as JSON. Every stack and temporary file it makes is removed before it exits.
 */
const SECTIONS = {
  generation: async (tmp: string) => (await import('./generation')).benchGeneration(tmp),
  lists: async (tmp: string) => (await import('./lists')).benchLists(tmp),
  growth: async (tmp: string) => (await import('./growth')).benchGrowth(tmp),
  bundles: async (tmp: string) => (await import('./bundles')).benchBundles(tmp),
  web: async (tmp: string) => (await import('./web')).benchWeb(tmp),
  large: async (tmp: string) => (await import('./large-file')).benchLargeFile(tmp),
  huge: async (tmp: string) => (await import('./huge-file')).benchHugeFiles(tmp),
  votes: async (tmp: string) => (await import('./votes')).benchVotes(tmp),
} satisfies Record<string, (tmp: string) => Promise<Row[]>>;
type Section = keyof typeof SECTIONS;

function parseArgs(argv: string[]): { only: Section[]; json?: string } {
  const all = Object.keys(SECTIONS) as Section[];
  let only = all;
  let json: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--only' || a.startsWith('--only=')) {
      const v = a.includes('=') ? a.slice('--only='.length) : argv[++i];
      only = (v ?? '').split(',').filter(Boolean) as Section[];
      const unknown = only.filter((s) => !all.includes(s));
      if (unknown.length || only.length === 0)
        throw new Error(`--only takes one or more of ${all.join(', ')} (got '${v ?? ''}')`);
    } else if (a === '--json' || a.startsWith('--json=')) {
      json = a.includes('=') ? a.slice('--json='.length) : argv[++i];
    } else if (a === '--help' || a === '-h') {
      console.log(`usage: npm run bench -- [--only ${all.join('|')}[,...]] [--json file]`);
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  return { only, json };
}

// The SDK's Node 20 notice would interleave with the progress lines (STACK.md).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const { only, json } = parseArgs(process.argv.slice(2));
const tmp = mkdtempSync(join(tmpdir(), 'frp-bench-'));
const started = new Date();
const loadAtStart = loadavg()[0]!.toFixed(1);
const rows: Row[] = [];
const cleanUp = () => rmSync(tmp, { recursive: true, force: true });
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    progress(`${signal}: stopping stacks and removing ${tmp}`);
    void runCleanups().finally(() => {
      cleanUp();
      process.exit(130);
    });
  });
if (QUICK) progress('BENCH_QUICK=1: fewer runs, shorter loads; figures are rough');

try {
  for (const section of only) {
    progress(`── ${section}`);
    const t = performance.now();
    try {
      rows.push(...(await SECTIONS[section](tmp)));
    } catch (e) {
      const err = e as Error;
      progress(`${section} failed: ${err.stack ?? err.message}`);
      rows.push(notMeasured(section, 'section', `failed: ${err.message.split('\n')[0]}`, '—'));
    }
    progress(`${section} took ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
} finally {
  cleanUp();
}

const loadAtEnd = loadavg()[0]!.toFixed(1);
console.log(
  `\n${QUICK ? '(quick run) ' : ''}Firmware Release Portal bench — ${started.toISOString()} — Node ${process.version}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GB, load ${loadAtStart} at start, ${loadAtEnd} at end, ${Math.round((Date.now() - started.getTime()) / 60_000)} min\n`,
);
console.log(formatTable(rows));
if (json) writeFileSync(json, `${JSON.stringify({ started: started.toISOString(), rows }, null, 2)}\n`);
process.exit(rows.some((r) => r.name === 'section' && r.verdict === 'not measured') ? 1 : 0);
