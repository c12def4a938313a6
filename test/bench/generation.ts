import { execFile } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import { promisify } from 'node:util';
import { info, mb, median, ms, progress, QUICK, type Row, verdict } from './report';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
const CHILD = join(import.meta.dirname, 'generation-child.ts');
const SECTION = 'generation';
const MiB = 1024 * 1024;
const SIZES = [
  { mib: 1, runs: QUICK ? 3 : 15 },
  { mib: 10, runs: QUICK ? 2 : 11 },
  { mib: 50, runs: QUICK ? 1 : 9 },
];
const TIME_RATIO = 1.3;
const MEMORY_RATIO = 1.5;

/** Writes `bytes` of random data with a stream, 1 MiB at a time. */
async function payloadFile(path: string, bytes: number): Promise<void> {
  const out = createWriteStream(path);
  const chunk = Buffer.alloc(MiB);
  for (let left = bytes; left > 0; left -= MiB) {
    randomFillSync(chunk);
    if (!out.write(left >= MiB ? chunk : chunk.subarray(0, left)))
      await new Promise<void>((r) => out.once('drain', () => r()));
  }
  out.end();
  await finished(out);
}

async function child<T>(args: string[]): Promise<T> {
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD, ...args], {
    cwd: ROOT,
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as T;
}

interface Timing {
  size: number;
  raw: number[];
  signed: number[];
  unsigned: number[];
  sign: number[];
}
interface Memory {
  size: number;
  xmlBytes: number;
  growth: { rss: number; heapUsed: number; external: number; arrayBuffers: number };
}

/**
 * buildXmlPackage against raw SHA-256 + base64 of the same bytes (same process, same file reads), and
 * its peak memory growth. Each measurement runs in a fresh Node process, so one size's garbage does
 * not count against the next.
 */
export async function benchGeneration(tmp: string): Promise<Row[]> {
  const dir = join(tmp, 'generation');
  const keyDir = join(dir, 'key');
  mkdirSync(keyDir, { recursive: true });
  const rows: Row[] = [];
  const growth: { mib: number; rss: number }[] = [];
  const signing: number[] = [];
  for (const { mib, runs } of SIZES) {
    const file = join(dir, `payload-${mib}mib.bin`);
    await payloadFile(file, mib * MiB);
    progress(`${mib} MiB: time (${runs} runs each) in a fresh process`);
    const t = await child<Timing>(['time', file, keyDir, String(runs)]);
    const raw = median(t.raw);
    signing.push(...t.sign);
    for (const kind of ['signed', 'unsigned'] as const) {
      const build = median(t[kind]);
      const ratio = build / raw;
      rows.push({
        section: SECTION,
        name: `${mib} MiB ${kind}: time vs raw SHA-256+base64`,
        value: `${ratio.toFixed(2)}× (${ms(build)} vs ${ms(raw)}; ${(mib / (build / 1000)).toFixed(0)} MiB/s)`,
        target: `≤ ${TIME_RATIO}×`,
        verdict: verdict(ratio <= TIME_RATIO),
      });
    }
    progress(`${mib} MiB: peak memory in a fresh process`);
    const m = await child<Memory>(['memory', file, keyDir]);
    const ratio = m.growth.rss / m.size;
    growth.push({ mib, rss: m.growth.rss });
    rows.push({
      section: SECTION,
      name: `${mib} MiB signed: peak memory growth`,
      value: `RSS +${mb(m.growth.rss)} = ${ratio.toFixed(2)}× input (heap +${mb(m.growth.heapUsed)}, external +${mb(m.growth.external)}, arrayBuffers +${mb(m.growth.arrayBuffers)})`,
      target: `≤ ${MEMORY_RATIO}× input (${mb(m.size * MEMORY_RATIO)})`,
      verdict: verdict(ratio <= MEMORY_RATIO),
    });
  }
  const first = growth[0]!;
  const last = growth[growth.length - 1]!;
  rows.push(
    info(
      SECTION,
      `peak RSS growth, ${first.mib} → ${last.mib} MiB input`,
      `${mb(first.rss)} → ${mb(last.rss)}: ${(((last.rss - first.rss) / ((last.mib - first.mib) * MiB)) * 100).toFixed(1)} % of the added input (flat = streamed)`,
    ),
    info(
      SECTION,
      'one signature, local key (@noble/curves P-256, FileSigner)',
      `${ms(median(signing))} per package, whatever its size (in AWS a KMS Sign call instead)`,
    ),
  );
  return rows;
}
