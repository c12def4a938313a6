import { createHash, randomFillSync } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync, rmSync, statfsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { startStackProcess } from '../support/stack-process';
import {
  approveAllButLast,
  expectStatus,
  type FlowUsers,
  makeClient,
  SEEDED,
  untilReady,
  untilRegistered,
} from './client';
import { info, mb, ms, notMeasured, onInterrupt, progress, QUICK, type Row, verdict } from './report';

const SECTION = 'large';
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
/** the size asked for; smaller when the disk cannot hold the copies the flow makes */
const WANTED = QUICK ? 128 * MiB : GiB;
/** file, staging and resource copies in s3rver, the XML temp file and the stored XML (4/3 each), margin */
const DISK_FACTOR = 6;
/** "flat": the server's peak RSS grows by at most a tenth of the file (a copy in memory would be 10×) */
const FLAT_SHARE = 0.1;

/** Resident memory of a process, from /proc (Linux). */
export function rss(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples RSS of some processes every 100 ms; `phase()` starts a new named peak. */
export function sampler(pids: Record<string, number>) {
  const base = Object.fromEntries(Object.entries(pids).map(([k, p]) => [k, rss(p)]));
  const peaks: Record<string, Record<string, number>> = {};
  let current = 'idle';
  const tick = () => {
    const phase = peaks[current] ?? {};
    peaks[current] = phase;
    for (const [k, p] of Object.entries(pids)) phase[k] = Math.max(phase[k] ?? 0, rss(p));
  };
  const timer = setInterval(tick, 100);
  return {
    base,
    phase(name: string) {
      tick();
      current = name;
      tick();
    },
    stop() {
      tick();
      clearInterval(timer);
      return peaks;
    },
  };
}

/** Streams `size` random bytes to a file (1 MiB at a time) and returns their SHA-256. */
export async function makeFile(path: string, size: number): Promise<string> {
  const out = createWriteStream(path);
  const hash = createHash('sha256');
  const chunk = Buffer.alloc(MiB);
  for (let left = size; left > 0; left -= MiB) {
    randomFillSync(chunk);
    const part = left >= MiB ? chunk : chunk.subarray(0, left);
    hash.update(part);
    if (!out.write(part)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  out.end();
  await finished(out);
  return hash.digest('hex');
}

/** An HTTP call without client timeouts (fetch gives up on headers after 300 s); body streamed or JSON. */
export function http(
  method: string,
  url: string,
  opts: {
    token?: string;
    json?: unknown;
    file?: string;
    size?: number;
    /** a byte range of `file` (inclusive end), for one part of a multipart upload */
    start?: number;
    end?: number;
    sink?: (c: Buffer) => void;
  } = {},
): Promise<{ status: number; text: string; bytes: number; etag: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {};
    if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
    const json = opts.json === undefined ? undefined : Buffer.from(JSON.stringify(opts.json));
    if (json) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = json.length;
    }
    if (opts.file) headers['Content-Length'] = opts.size!;
    const req = request(url, { method, headers }, (res) => {
      const parts: Buffer[] = [];
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (opts.sink) opts.sink(c);
        else parts.push(c);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(parts).toString(),
          bytes,
          etag: String(res.headers.etag ?? ''),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    if (opts.file)
      createReadStream(opts.file, { highWaterMark: MiB, start: opts.start, end: opts.end }).pipe(req);
    else req.end(json);
  });
}

const rate = (bytes: number, took: number) => `${(bytes / MiB / (took / 1000)).toFixed(0)} MiB/s`;

/**
 * A large resource through the presigned flow on a local stack (request, PUT to s3rver, confirm), a
 * package generated from it by the last approval, and its download through the presigned URL, while
 * the server process (where the handlers run, as in a Lambda) is sampled for resident memory.
 */
export async function benchLargeFile(tmp: string): Promise<Row[]> {
  const free = statfsSync(tmp).bavail * statfsSync(tmp).bsize;
  let size = WANTED;
  while (size * DISK_FACTOR > free && size > 16 * MiB) size /= 2;
  const rows: Row[] = [];
  if (size !== WANTED)
    rows.push(
      info(
        SECTION,
        'size reduced',
        `${mb(size, 0)} instead of ${mb(WANTED, 0)}: ${mb(free, 0)} free in ${tmp}`,
      ),
    );
  if (size * DISK_FACTOR > free)
    return [notMeasured(SECTION, 'presigned upload and download', `only ${mb(free, 0)} free on disk`, '—')];

  const file = join(tmp, 'large-resource.bin');
  progress(`writing a ${mb(size, 0)} file with a stream`);
  const sha256 = await makeFile(file, size);
  const stack = await startStackProcess({ LOGIN_MAX_FAILURES_PER_SOURCE: '100000' });
  const forget = onInterrupt(() => stack.stop());
  try {
    const emulators = JSON.parse(readFileSync(join(stack.dataDir, 'emulators.json'), 'utf8')) as {
      name: string;
      pid: number;
    }[];
    const s3rverPid = emulators.find((e) => /s3/i.test(e.name))?.pid;
    const api = makeClient(stack.url);
    const base = `${stack.url}/dev`;
    const users = Object.fromEntries(
      await Promise.all(
        (['designDev', 'designTest', 'lead', 'reliability', 'release'] as const).map(
          async (k) => [k, await api.login(SEEDED[k])] as const,
        ),
      ),
    );
    const dev = users.designDev!;
    // Load the handler modules the flow uses with harmless calls (404s), as in a warm Lambda: their code
    // and SDK clients are not what this measures. Then let the server settle before the baseline.
    for (const [method, path] of [
      ['POST', '/resources/uploads/none/confirm'],
      ['POST', '/packages/none/approve'],
      ['GET', '/packages/none'],
    ] as const)
      await api.call(path, { method, token: dev.token });
    await new Promise((r) => setTimeout(r, 3000));
    const mem = sampler({ server: stack.child.pid!, ...(s3rverPid ? { s3rver: s3rverPid } : {}) });
    const timings: Record<string, number> = {};
    const timed = async <T>(phase: string, f: () => Promise<T>): Promise<T> => {
      mem.phase(phase);
      const t = performance.now();
      const r = await f();
      timings[phase] = performance.now() - t;
      return r;
    };

    const upload = expectStatus(
      await api.call<{ uploadId: string; resourceUrl: string }>('/resources/uploads', {
        method: 'POST',
        token: dev.token,
        body: {
          name: 'bench-large',
          resourceType: 'PATCH',
          resourceStage: 'DEV',
          fileName: 'large.bin',
          sizeBytes: size,
        },
      }),
      201,
      'request upload',
    ).body;
    if (!new URL(upload.resourceUrl).hostname.match(/^(127\.0\.0\.1|localhost)$/))
      throw new Error(`the presigned URL is not local: ${new URL(upload.resourceUrl).host}`);
    progress('PUT to the presigned URL');
    const put = await timed('upload (PUT to presigned URL)', () =>
      http('PUT', upload.resourceUrl, { file, size }),
    );
    if (put.status !== 200) throw new Error(`PUT: ${put.status} ${put.text.slice(0, 200)}`);
    progress(
      'confirm (checks; answers VERIFYING), then the copy out of staging while hashing, off the request',
    );
    const confirm = await timed('confirm (checks; answers VERIFYING)', () =>
      http('POST', `${base}/resources/uploads/${upload.uploadId}/confirm`, { token: dev.token }),
    );
    if (confirm.status !== 202) throw new Error(`confirm: ${confirm.status} ${confirm.text.slice(0, 200)}`);
    const resource = await timed('verify (copy + SHA-256 off the request, until REGISTERED)', () =>
      untilRegistered(api, dev.token, upload.uploadId),
    );
    if (resource.sha256 !== sha256) throw new Error('the stored resource does not hash like the file');
    rmSync(file, { force: true });

    mem.phase('package set-up');
    const gen = expectStatus(
      await api.call<{ package: string }>(`/resources/${resource.id}/generate-package`, {
        method: 'POST',
        token: dev.token,
        body: {
          packageName: 'bench-large-package',
          packageType: 'DEV_UNSIGNED',
          note: 'Large package benchmark',
        },
      }),
      201,
      'generate-package',
    );
    const pkgId = (JSON.parse(gen.body.package) as { id: string }).id;
    const deciding = await approveAllButLast(api, users as FlowUsers, pkgId, 'PUMP-LARGE');
    progress('last approval: answers GENERATING; the worker generates the XML package');
    const dl = await timed('generate (last approval until ready)', async () => {
      const last = await http('POST', `${base}/packages/${pkgId}/approve`, {
        token: deciding.token,
        json: { password: SEED_PASSWORD },
      });
      if (last.status !== 202) throw new Error(`last approve: ${last.status} ${last.text.slice(0, 200)}`);
      return untilReady(api, dev.token, pkgId, 60 * 60_000);
    });
    // the download request itself: where the stored file is checked before its URL is handed out
    progress('GET /packages/{id}: the download request, answered with the presigned URL');
    const asked = await timed('download request (GET /packages/{id}: check, presign)', () =>
      api.call<{ downloadUrl?: string }>(`/packages/${pkgId}`, { token: dev.token }),
    );
    if (asked.status !== 200 || !asked.body.downloadUrl)
      throw new Error(`download request: ${asked.status} ${JSON.stringify(asked.body).slice(0, 200)}`);
    progress('GET the presigned download URL');
    const hash = createHash('sha256');
    const got = await timed('download (GET presigned URL)', () =>
      http('GET', dl.downloadUrl!, { sink: (c) => hash.update(c) }),
    );
    const peaks = mem.stop();
    if (got.status !== 200 || got.bytes !== dl.sizeBytes || hash.digest('hex') !== dl.sha256)
      throw new Error(`download: ${got.status}, ${got.bytes} of ${dl.sizeBytes} bytes or a wrong SHA-256`);

    const limit = size * FLAT_SHARE;
    for (const [phase, took] of Object.entries(timings)) {
      const bytes = phase.startsWith('generate') || phase.startsWith('download') ? dl.sizeBytes : size;
      const growth = (peaks[phase]?.server ?? 0) - mem.base.server!;
      const s3 = s3rverPid ? (peaks[phase]?.s3rver ?? 0) - mem.base.s3rver! : undefined;
      rows.push({
        section: SECTION,
        name: `${mb(size, 0)}: ${phase}`,
        value: `${ms(took)}, ${rate(bytes, took)}; server RSS +${mb(growth)}${s3 === undefined ? '' : ` (s3rver +${mb(s3)})`}`,
        target: `server RSS +≤ ${mb(limit, 0)} (flat)`,
        verdict: verdict(growth <= limit),
      });
    }
    rows.push(
      info(
        SECTION,
        `${mb(size, 0)}: XML package`,
        `${mb(dl.sizeBytes)} (${(dl.sizeBytes / size).toFixed(3)}× the resource), SHA-256 checked on download; server RSS before ${mb(mem.base.server!)}`,
      ),
    );
  } finally {
    rmSync(file, { force: true });
    await stack.stop();
    forget();
  }
  return rows;
}
