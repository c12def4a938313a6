import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { FileSigner } from '../../lambdas/adapters/local/file-signer';
import { buildXmlPackage, type XmlPackageInput } from '../../lambdas/services/artefact/xml-package';
import type { PackageType } from '../../shared/api/contracts/packages';
import { newPackageHeader } from '../../shared/domain/header/header-rules';

/**
 * One measurement of package generation in a fresh process (run by generation.ts, never by hand):
 *   time <file> <keyDir> <runs>   — buildXmlPackage (signed, unsigned) and raw SHA-256 + base64, alternated
 *   memory <file> <keyDir>        — peak memory growth while one signed package is built
 * The answer is one JSON line on stdout.
 */
const CHUNK = 64 * 1024;

const person = (id: string, role: string) => ({ id, name: `User ${id}`, email: `${id}@example.com`, role });

function input(
  type: PackageType,
  sizeBytes: number,
  bytes: AsyncIterable<Uint8Array>,
  signer: FileSigner,
): XmlPackageInput {
  const signed = type.endsWith('_SIGNED');
  return {
    package: {
      id: 'bench-pkg',
      name: 'Bench package',
      type,
      stage: type.startsWith('DEV') ? 'DEV' : 'RELEASE',
      resourceName: 'bench.bin',
      resourceType: 'PATCH',
      note: 'Benchmark of package generation',
      initiator: person('u-init', 'DESIGN_ENGINEER_DEV'),
      createdAt: '2026-03-01T09:00:00.000Z',
    },
    generatedAt: '2026-03-02T10:00:00.000Z',
    header: newPackageHeader({ packageType: type, resourceSizeBytes: sizeBytes, metadataSizeBytes: 0 }),
    dcc: { id: 'dcc-1', deviceId: 'PUMP-7', telemetryType: 'TelA', deviceLimit: 4096, messageLimit: 64 },
    approvals: [
      { approver: person('u-tl', 'TECHNICAL_LEADER'), approvedAt: '2026-03-01T12:00:00.000Z' },
      { approver: person('u-re', 'RELIABILITY_ENGINEER'), approvedAt: '2026-03-01T13:00:00.000Z' },
    ],
    payload: { fileName: 'bench.bin', bytes },
    ...(signed
      ? {
          signing: {
            signer,
            signedBy: person('u-rel', 'SW_FW_RELEASE_ENGINEER'),
            signedAt: '2026-03-02T10:00:00.000Z',
          },
        }
      : {}),
  };
}

const fileChunks = (file: string): AsyncIterable<Uint8Array> =>
  createReadStream(file, { highWaterMark: CHUNK });

async function* generated(size: number): AsyncGenerator<Uint8Array> {
  const chunk = new Uint8Array(CHUNK).map((_, i) => (i * 31) & 0xff);
  for (let left = size; left > 0; left -= CHUNK) yield chunk.subarray(0, Math.min(CHUNK, left));
}

/** Builds a package and reads it to the end, keeping nothing (the store streams it to a file). */
async function buildOnce(
  type: PackageType,
  size: number,
  bytes: AsyncIterable<Uint8Array>,
  signer: FileSigner,
  onChunk?: () => void,
): Promise<number> {
  const b = buildXmlPackage(input(type, size, bytes, signer));
  let out = 0;
  for await (const c of b.stream) {
    out += (c as Buffer).length;
    onChunk?.();
  }
  await b.result;
  return out;
}

/** The floor: hash and base64 every byte of the same file, read the same way, keeping nothing. */
async function rawOnce(file: string): Promise<number> {
  const hash = createHash('sha256');
  let out = 0;
  for await (const c of fileChunks(file)) {
    hash.update(c);
    out += (c as Buffer).toString('base64').length;
  }
  hash.digest();
  return out;
}

async function timed(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

const [mode, file, keyDir, runsArg] = process.argv.slice(2);
if (!mode || !file || !keyDir)
  throw new Error('usage: generation-child.ts time|memory <file> <keyDir> [runs]');
const { size } = await import('node:fs/promises').then((fs) => fs.stat(file));
const signer = new FileSigner(join(keyDir, 'signing-key.pem'));
await signer.publicKeyPem(); // loads (or makes) the key outside the timed part
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

if (mode === 'time') {
  const runs = Number(runsArg ?? 5);
  // Warm-up until the optimising compiler has settled (one pass is not enough for a 1 MiB file) and the
  // file sits in the page cache: at least 3 rounds and 64 MiB through each path.
  for (let i = 0; i < Math.max(3, Math.ceil((64 * 1024 * 1024) / size)); i++) {
    await rawOnce(file);
    await buildOnce('RELEASE_SIGNED', size, fileChunks(file), signer);
    await buildOnce('DEV_UNSIGNED', size, fileChunks(file), signer);
  }
  const raw: number[] = [];
  const signed: number[] = [];
  const unsigned: number[] = [];
  for (let i = 0; i < runs; i++) {
    gc();
    raw.push(await timed(() => rawOnce(file)));
    gc();
    signed.push(await timed(() => buildOnce('RELEASE_SIGNED', size, fileChunks(file), signer)));
    gc();
    unsigned.push(await timed(() => buildOnce('DEV_UNSIGNED', size, fileChunks(file), signer)));
  }
  // the signer's share: one signature of a digest (the build adds a verify and a key export)
  const sign: number[] = [];
  const digest = createHash('sha256').update('bench').digest();
  for (let i = 0; i < 15; i++) sign.push(await timed(() => signer.sign(digest)));
  console.log(JSON.stringify({ size, raw, signed, unsigned, sign }));
} else if (mode === 'memory') {
  // warm-up on a small generated payload: modules loaded and code compiled before the baseline
  await buildOnce('RELEASE_SIGNED', 256 * 1024, generated(256 * 1024), signer);
  gc();
  gc();
  await new Promise((r) => setTimeout(r, 50));
  const base = process.memoryUsage();
  const peak = {
    rss: base.rss,
    heapUsed: base.heapUsed,
    external: base.external,
    arrayBuffers: base.arrayBuffers,
  };
  const sample = () => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
    peak.external = Math.max(peak.external, m.external);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, m.arrayBuffers);
  };
  const timer = setInterval(sample, 2);
  const xmlBytes = await buildOnce('RELEASE_SIGNED', size, fileChunks(file), signer, sample);
  clearInterval(timer);
  sample();
  console.log(
    JSON.stringify({
      size,
      xmlBytes,
      growth: {
        rss: peak.rss - base.rss,
        heapUsed: peak.heapUsed - base.heapUsed,
        external: peak.external - base.external,
        arrayBuffers: peak.arrayBuffers - base.arrayBuffers,
      },
    }),
  );
} else throw new Error(`unknown mode ${mode}`);
