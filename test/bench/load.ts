import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { percentile } from './report';

/** Load for the list benches (lists.ts, growth.ts): a closed loop in this process, or autocannon's CLI. */
const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');

export interface Load {
  p50: number;
  p99: number;
  rps: number;
  count: number;
  failed: number;
}

/**
 * `clients` loops calling `f`, each for `seconds` or `requests` calls in all (a closed loop, as
 * autocannon runs), with the latency of every call.
 */
export async function closedLoop(
  clients: number,
  run_: { seconds: number } | { requests: number },
  f: () => Promise<unknown>,
): Promise<Load> {
  const latencies: number[] = [];
  let failed = 0;
  let left = 'requests' in run_ ? run_.requests : Number.POSITIVE_INFINITY;
  const end = 'seconds' in run_ ? performance.now() + run_.seconds * 1000 : Number.POSITIVE_INFINITY;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end && left-- > 0) {
        const t = performance.now();
        try {
          await f();
          latencies.push(performance.now() - t);
        } catch {
          failed++;
        }
      }
    }),
  );
  const took = (performance.now() - started) / 1000;
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    rps: latencies.length / took,
    count: latencies.length,
    failed,
  };
}

interface Cannon {
  latency: { p50: number; p99: number; max: number };
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** autocannon (its CLI, in its own process) against one URL with a bearer token. */
export async function autocannon(
  url: string,
  token: string,
  clients: number,
  run_: { seconds: number } | { requests: number },
): Promise<Load> {
  const bin = join(ROOT, 'node_modules', 'autocannon', 'autocannon.js');
  const { stdout } = await run(
    process.execPath,
    [
      bin,
      '-c',
      String(clients),
      ...('seconds' in run_ ? ['-d', String(run_.seconds)] : ['-a', String(run_.requests)]),
      '-t',
      '120',
      '-j',
      '-H',
      `Authorization=Bearer ${token}`,
      url,
    ],
    { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
  );
  const r = JSON.parse(stdout) as Cannon;
  return {
    p50: r.latency.p50,
    p99: r.latency.p99,
    rps: r.requests.average,
    count: r.requests.total,
    failed: r.non2xx + r.errors + r.timeouts,
  };
}
