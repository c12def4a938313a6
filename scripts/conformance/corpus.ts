import { type Base, generateBase, SBOM_FILES } from './bases';
import { type Parts, partsOf } from './forge';
import { type TestKeyName, testKey } from './keys';
import type { BuildContext, Category, SbomSource, Source, VectorDef, Verdict } from './vector';
import { LAYOUT_VECTORS } from './vectors-layout';
import { PACKAGE_VECTORS } from './vectors-package';
import { BASES, REAL_VECTORS } from './vectors-real';
import { SIGNATURE_VECTORS } from './vectors-signature';
import { STATEMENT_VECTORS } from './vectors-statement';

/**
 * The conformance corpus of docs/conformance/ (docs/package-format.md §13), built in memory: every file
 * and vectors.json, byte for byte what `npm run conformance:generate` writes (README.md is written by
 * hand and is not part of it).
 */

/** The corpus's format id, in vectors.json. */
export const CORPUS_FORMAT = 'firmware-release-portal/conformance/1';

/** One vector as vectors.json lists it. */
export interface VectorEntry {
  id: string;
  category: Category;
  description: string;
  package: string;
  statement?: string;
  sbom?: string;
  expect: { field: Verdict; development: Verdict };
  /** for a refusal: the check of `npm run verify` that refuses it */
  verifyCheck?: string;
}

export const ALL_VECTORS: readonly VectorDef[] = [
  ...REAL_VECTORS,
  ...PACKAGE_VECTORS,
  ...LAYOUT_VECTORS,
  ...SIGNATURE_VECTORS,
  ...STATEMENT_VECTORS,
];

/** The devices of vectors.json: which test keys each holds, and whether it is in a development mode. */
export const DEVICES = {
  field: { keys: ['release'] as TestKeyName[], developmentMode: false },
  development: { keys: ['dev', 'release'] as TestKeyName[], developmentMode: true },
} as const;

export const keyFile = (name: TestKeyName) => `keys/${name}.pem`;

export interface Corpus {
  /** path inside docs/conformance → bytes */
  files: Map<string, Buffer>;
  vectors: VectorEntry[];
}

/** Builds the whole corpus; deterministic (fixed inputs, clock and keys, RFC 6979 signatures). */
export async function buildCorpus(): Promise<Corpus> {
  const bases = new Map<string, Base>();
  for (const [i, spec] of BASES.entries()) bases.set(spec.id, await generateBase(spec, i + 1));
  const parts = new Map<string, Parts>();
  const ctx: BuildContext = {
    base: (id) => bases.get(id) ?? fail(`no base ${id}`),
    xml: (id) => ctx.base(id).xml.toString('utf8'),
    parts: (id) => {
      if (!parts.has(id)) parts.set(id, partsOf(ctx.xml(id)));
      return parts.get(id)!;
    },
    key: testKey,
  };

  const files = new Map<string, Buffer>();
  const put = (path: string, bytes: Buffer) => {
    const had = files.get(path);
    if (had && !had.equals(bytes)) throw new Error(`${path} is written twice with different bytes`);
    files.set(path, bytes);
  };
  const source = (s: Source, own: string, fromBase: (b: Base) => Buffer, dir: string, ext: string) => {
    if (typeof s === 'object' && !Buffer.isBuffer(s)) {
      const path = `${dir}/${s.base}.${ext}`;
      put(path, fromBase(ctx.base(s.base)));
      return path;
    }
    const path = `${dir}/${own}.${ext}`;
    put(path, Buffer.isBuffer(s) ? s : Buffer.from(s, 'utf8'));
    return path;
  };
  const sbomPath = (s: SbomSource, own: string) => {
    if (Buffer.isBuffer(s)) {
      put(`sboms/${own}.json`, s);
      return `sboms/${own}.json`;
    }
    put(`sboms/${s.toLowerCase()}.json`, SBOM_FILES[s]);
    return `sboms/${s.toLowerCase()}.json`;
  };

  const ids = new Set<string>();
  const vectors: VectorEntry[] = [];
  for (const v of ALL_VECTORS) {
    if (ids.has(v.id)) throw new Error(`vector ${v.id} twice`);
    ids.add(v.id);
    const f = await v.files(ctx).catch((e: Error) => fail(`vector ${v.id}: ${e.message}`));
    const own = v.id.replace(/\+/g, '-');
    vectors.push({
      id: v.id,
      category: v.category,
      description: v.description,
      package: source(f.package, own, (b) => b.xml, 'packages', 'xml'),
      ...(f.statement
        ? {
            statement: source(
              f.statement,
              own,
              (b) => Buffer.from(b.statement ?? fail(`${b.spec.id} has no statement`), 'utf8'),
              'statements',
              'json',
            ),
          }
        : {}),
      ...(f.sbom ? { sbom: sbomPath(f.sbom, own) } : {}),
      expect: { field: v.field, development: v.development },
      ...(v.check ? { verifyCheck: v.check } : {}),
    });
  }
  for (const name of ['release', 'dev', 'untrusted'] as const)
    put(keyFile(name), Buffer.from(await testKey(name).publicKeyPem(), 'utf8'));
  const manifest = {
    format: CORPUS_FORMAT,
    keys: { release: keyFile('release'), dev: keyFile('dev'), untrusted: keyFile('untrusted') },
    devices: {
      field: {
        ...DEVICES.field,
        command:
          'npm run verify -- <package> --key keys/release.pem [--statement <statement> [--sbom <sbom>]]',
      },
      development: {
        ...DEVICES.development,
        command:
          'npm run verify -- <package> --dev --key keys/dev.pem --key keys/release.pem [--statement <statement> [--sbom <sbom>]]',
      },
    },
    vectors,
  };
  put('vectors.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8'));
  return { files, vectors };
}

function fail(message: string): never {
  throw new Error(message);
}
