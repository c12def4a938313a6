import { join, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_ROUTES } from '../shared/api/route-table/identity';
import { PASSKEY_ROUTES } from '../shared/api/route-table/passkeys';
import { handlerFile, ROUTES, type Route } from '../shared/api/routes';

/**
 * The composition is split by adapter (docs/decisions/052-composition-by-adapter.md): a handler reaches the
 * SES, S3 and KMS clients only through composition-mail/-storage/-artefacts, and only if its route table
 * row uses them. These tests read each handler's import graph (project files only, npm packages left
 * external, so it takes a second) rather than bundling the SDK.
 */
const ROOT = resolve(import.meta.dirname, '..');
const HEAVY_CLIENTS = [
  '@aws-sdk/client-s3',
  '@aws-sdk/s3-request-presigner',
  '@aws-sdk/client-sesv2',
  '@aws-sdk/client-kms',
];

/** files: every project file imported; bundled: those with code left in the output after tree shaking */
interface Graph {
  files: string[];
  bundled: string[];
  packages: string[];
}

async function graph(route: Route): Promise<Graph> {
  const r = await build({
    entryPoints: [join(ROOT, 'lambdas', 'handlers', `${handlerFile(route.id)}.ts`)],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    metafile: true,
    logLevel: 'silent',
  });
  const { inputs, outputs } = r.metafile as Metafile;
  return {
    files: Object.keys(inputs),
    bundled: Object.values(outputs).flatMap((o) =>
      Object.entries(o.inputs)
        .filter(([, i]) => i.bytesInOutput > 0)
        .map(([f]) => f),
    ),
    packages: Object.values(inputs).flatMap((i) => i.imports.filter((x) => x.external).map((x) => x.path)),
  };
}

const usesStorageOrMail = (r: Route) =>
  Object.keys(r.uses.buckets ?? {}).length > 0 || Boolean(r.uses.mail) || Boolean(r.uses.sign);

describe('composition by adapter', () => {
  const graphs = new Map<string, Graph>();
  // one esbuild pass per handler, all at once: seconds on a quiet machine, minutes at a load of 15–20
  beforeAll(async () => {
    for (const [id, g] of await Promise.all(ROUTES.map(async (r) => [r.id, await graph(r)] as const)))
      graphs.set(id, g);
  }, 300_000);

  it('bundles no S3, SES or KMS client into a handler whose route uses only DynamoDB', () => {
    const dynamoOnly = ROUTES.filter((r) => !usesStorageOrMail(r));
    expect(dynamoOnly.length).toBeGreaterThan(10);
    for (const r of dynamoOnly) {
      const { packages } = graphs.get(r.id)!;
      expect(
        packages.filter((p) => HEAVY_CLIENTS.some((c) => p === c || p.startsWith(`${c}/`))),
        r.id,
      ).toEqual([]);
    }
  });

  it('plugs in every adapter that a route table row uses, and no other', () => {
    for (const r of ROUTES) {
      const { files } = graphs.get(r.id)!;
      const has = (m: string) => files.includes(`lambdas/${m}.ts`);
      const buckets = Object.keys(r.uses.buckets ?? {});
      const artefacts = buckets.includes('artefacts') || Boolean(r.uses.sign);
      expect(has('composition-mail'), `${r.id} mail`).toBe(Boolean(r.uses.mail));
      expect(has('composition-artefacts'), `${r.id} artefacts`).toBe(artefacts);
      expect(has('composition-storage'), `${r.id} storage`).toBe(buckets.length > 0 || artefacts);
    }
  });

  it('gates a guarded route with the token check alone: no handler outside identity bundles the identity service', () => {
    // passkeys are the identity service's too (a sign-in's second step, one's own sign-in methods)
    const identity = new Set<string>([...IDENTITY_ROUTES, ...PASSKEY_ROUTES].map((r) => r.id));
    const others = ROUTES.filter((r) => !identity.has(r.id));
    expect(others.length).toBeGreaterThan(30);
    for (const r of others) {
      const { bundled } = graphs.get(r.id)!;
      expect(bundled, r.id).toContain('lambdas/services/users/sign-in.ts');
      expect(bundled, r.id).not.toContain('lambdas/services/user-service.ts');
    }
  });

  it('bundles its own area of the route table only: not the whole table, nor every area’s schemas', () => {
    // a handler's route() is bound to its area's rows and schemas (decision 269); only GET
    // /dev/openapi.json builds the document from the whole contract
    const whole = (f: string) => f === 'shared/api/contract.ts' || f === 'shared/api/routes.ts';
    // an area's files: <area>.ts and its sub-areas <area>-<part>.ts (groups, types, token-use are shared)
    const areaOf = (f: string) =>
      /^shared\/api\/route-table\/(?!groups|types|token-use)([a-z]+)[a-z-]*\.ts$/.exec(f)?.[1];
    expect(graphs.get('openapi')!.files.filter(whole)).toContain('shared/api/contract.ts');
    for (const r of ROUTES.filter((x) => x.id !== 'openapi')) {
      const { files } = graphs.get(r.id)!;
      expect(files.filter(whole), r.id).toEqual([]);
      const areas = new Set(files.map(areaOf).filter(Boolean));
      expect(areas.size, `${r.id}: ${[...areas].join(', ')}`).toBe(1);
    }
  });
});
