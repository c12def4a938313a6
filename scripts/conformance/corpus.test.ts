import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { filesUnder, HAND_WRITTEN } from '../conformance-generate';
import { runVerify } from '../verify';
import { buildCorpus, CORPUS_FORMAT, type Corpus, type VectorEntry } from './corpus';
import { CATEGORIES } from './vector';

/**
 * The conformance corpus of docs/conformance/ (docs/package-format.md §13): what is committed is what the
 * generator writes from the current format code, and `npm run verify` reaches every expected verdict, as a
 * device in the field and as a device in a development mode.
 */

const DIR = resolve(__dirname, '../../docs/conformance');
const at = (path: string) => join(DIR, path);

interface Manifest {
  format: string;
  keys: Record<string, string>;
  devices: Record<'field' | 'development', { keys: string[]; developmentMode: boolean; command: string }>;
  vectors: VectorEntry[];
}
/** vectors.json as committed: the tests read it as a device team does */
const manifest = JSON.parse(readFileSync(at('vectors.json'), 'utf8')) as Manifest;

let corpus: Corpus;
beforeAll(async () => {
  corpus = await buildCorpus();
}, 120_000);

describe('docs/conformance', () => {
  it('is byte for byte what npm run conformance:generate writes now (regenerate it when the format changes)', () => {
    const committed = filesUnder(DIR).filter((p) => !HAND_WRITTEN.has(p));
    expect(committed.sort()).toEqual([...corpus.files.keys()].sort());
    const differ = [...corpus.files].filter(([path, bytes]) => !readFileSync(at(path)).equals(bytes));
    expect(differ.map(([path]) => path)).toEqual([]);
  });

  it('holds at least 100 vectors of every category, small files, and public test keys only', () => {
    expect(manifest.format).toBe(CORPUS_FORMAT);
    expect(manifest.vectors.length).toBeGreaterThanOrEqual(100);
    expect(new Set(manifest.vectors.map((v) => v.category))).toEqual(new Set(CATEGORIES));
    expect(new Set(manifest.vectors.map((v) => v.id)).size).toBe(manifest.vectors.length);
    const sizes = [...corpus.files.values()].map((b) => b.length);
    expect(Math.max(...sizes)).toBeLessThan(64 * 1024);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThan(3 * 1024 * 1024);
    for (const path of Object.values(manifest.keys)) {
      const pem = readFileSync(at(path), 'utf8');
      expect(pem, path).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    }
    // every device verdict is stated, and every refusal names the rule it is about
    for (const v of manifest.vectors) {
      expect(['accept', 'refuse'], v.id).toContain(v.expect.field);
      expect(['accept', 'refuse'], v.id).toContain(v.expect.development);
      if (v.expect.field === 'refuse' || v.expect.development === 'refuse')
        expect(v.verifyCheck, v.id).toBeTruthy();
    }
    // the real packages cover patch and model, each type, with and without a statement and an SBOM
    const real = manifest.vectors.filter((v) => v.category === 'real');
    for (const t of ['release-signed', 'release-unsigned', 'dev-signed', 'dev-unsigned'])
      for (const r of ['patch', 'model'])
        expect(
          real.map((v) => v.id),
          `${t}-${r}`,
        ).toContain(`${t}-${r}`);
    expect(real.filter((v) => v.statement && v.sbom).length).toBeGreaterThanOrEqual(3);
    expect(real.filter((v) => v.statement && !v.sbom).length).toBeGreaterThanOrEqual(3);
  });
});

/** The arguments of `npm run verify` for a vector on a device, with the corpus's files. */
function argsOf(v: VectorEntry, device: 'field' | 'development'): string[] {
  const d = manifest.devices[device];
  return [
    at(v.package),
    ...(d.developmentMode ? ['--dev'] : []),
    ...d.keys.flatMap((k) => ['--key', at(manifest.keys[k]!)]),
    ...(v.statement ? ['--statement', at(v.statement)] : []),
    ...(v.sbom ? ['--sbom', at(v.sbom)] : []),
  ];
}

describe('npm run verify over the whole corpus', () => {
  it('reaches every expected verdict, field and development, refusing each vector by the rule it is about', async () => {
    const wrong: string[] = [];
    let runs = 0;
    for (const v of manifest.vectors)
      for (const device of ['field', 'development'] as const) {
        let out = '';
        const code = await runVerify(argsOf(v, device), (s) => {
          out += s;
        });
        runs++;
        const verdict = code === 0 ? 'accept' : code === 1 ? 'refuse' : `usage error ${code}`;
        if (verdict !== v.expect[device])
          wrong.push(`${v.id} (${device}): ${verdict}, expected ${v.expect[device]}\n${out}`);
        else if (verdict === 'refuse' && !out.includes(`  FAIL  ${v.verifyCheck}: `))
          wrong.push(`${v.id} (${device}): refused, but not by "${v.verifyCheck}"\n${out}`);
      }
    expect(wrong).toEqual([]);
    expect(runs).toBe(2 * manifest.vectors.length);
  }, 300_000);

  it('as a device team runs it: the command, with its exit code, on a vector of each verdict', () => {
    const pick = (id: string) => manifest.vectors.find((v) => v.id === id)!;
    for (const [id, device, status] of [
      ['release-signed-patch+statement+sbom', 'field', 0],
      ['dev-signed-patch', 'field', 1],
      ['dev-signed-patch', 'development', 0],
      ['statement-other-signer', 'field', 1],
    ] as const) {
      const r = spawnSync(
        process.execPath,
        ['--import', 'tsx', 'scripts/verify.ts', ...argsOf(pick(id), device)],
        {
          encoding: 'utf8',
        },
      );
      expect(r.status, `${id} ${device}: ${r.stdout}${r.stderr}`).toBe(status);
    }
  }, 120_000);
});
