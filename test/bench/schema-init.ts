import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';

/**
 * What building an area's zod schemas costs at cold start (decisions 239, 269), measured in isolation:
 * each variant is bundled as the stack bundles a handler (esm, node22, minified) and evaluated in a fresh
 * `node` process per round, interleaved, so load on a shared machine hits every variant alike; prints
 * min and median of the CPU time the import (parse + evaluation) takes.
 * `npx tsx test/bench/schema-init.ts [rounds]`.
 */
const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
const RT = join(ROOT, 'shared', 'api', 'route-table');
const ROUNDS = Number(process.argv[2] ?? 15);
const AREAS = ['identity', 'resources', 'packages', 'admin', 'access-tokens', 'api-docs'];

/** name → module source: each keeps what it imports alive (globalThis), so nothing is shaken off. */
const VARIANTS: Record<string, string> = {
  'zod only': `import * as z from 'zod'; globalThis.k = z.object({ a: z.string() });`,
  // what a handler of the area builds: its rows, requests and answers (lambdas/routes/<area>.ts)
  ...Object.fromEntries(
    AREAS.map((a) => [`${a}: the area's file`, `import * as c from '${RT}/${a}.ts'; globalThis.k = c;`]),
  ),
  // what a handler would build if it read the whole table (shared/api/routes.ts) or the joined contract
  'every area: routes.ts + contract.ts': `import * as r from '${join(ROOT, 'shared', 'api', 'routes.ts')}'; import * as c from '${join(ROOT, 'shared', 'api', 'contract.ts')}'; globalThis.k = [r, c];`,
};

/** CPU time (user + system) of the import: what load on a shared machine disturbs least. */
const PROBE = `const c = process.cpuUsage(); await import(process.argv[2]); const d = process.cpuUsage(c); console.log((d.user + d.system) / 1000);`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'frp-schema-init-'));
  try {
    const files: Record<string, string> = {};
    const bytes: Record<string, number> = {};
    let i = 0;
    for (const [name, source] of Object.entries(VARIANTS)) {
      const out = join(dir, `v${i++}.mjs`);
      await build({
        stdin: { contents: source, resolveDir: ROOT, loader: 'ts' },
        outfile: out,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node22',
        minify: true,
        logLevel: 'error',
      });
      files[name] = out;
      bytes[name] = statSync(out).size;
    }
    const probe = join(dir, 'probe.mjs');
    writeFileSync(probe, PROBE);
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(files).map((n) => [n, []]));
    const loads: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      loads.push(loadavg()[0]!);
      for (const [name, file] of Object.entries(files)) {
        const { stdout } = await run(process.execPath, [probe, file]);
        times[name]!.push(Number(stdout.trim()));
      }
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(`rounds ${ROUNDS}, load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
    console.log('variant'.padEnd(40), 'KB'.padStart(7), 'min ms CPU'.padStart(11), 'median ms'.padStart(10));
    for (const [name, xs] of Object.entries(times))
      console.log(
        name.padEnd(40),
        (bytes[name]! / 1024).toFixed(1).padStart(7),
        Math.min(...xs)
          .toFixed(2)
          .padStart(11),
        med(xs).toFixed(2).padStart(10),
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
