import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, build } from 'esbuild';
import { handlerFile, ROUTES, type Route } from '../../shared/api/routes';
import { bucketEnv, tableEnv } from '../../shared/api/runtime';
import { info, kb, median, ms, progress, QUICK, type Row, verdict } from './report';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
const SECTION = 'bundles';
const RUNS = QUICK ? 3 : 15;
const DYNAMO_ONLY_MS = 100;
const WITH_STORAGE_MS = 160;

/** The SDK clients a bundle can carry, by the package that brings each in. */
const SDK_CLIENTS: Record<string, string> = {
  '@aws-sdk/client-dynamodb': 'ddb',
  '@aws-sdk/client-s3': 's3',
  '@aws-sdk/client-sesv2': 'ses',
  '@aws-sdk/client-kms': 'kms',
  '@aws-sdk/client-secrets-manager': 'sm',
  '@aws-sdk/client-lambda': 'lambda',
};

/** What the handler touches beyond DynamoDB, from its route table row (S3, KMS or SES: the 160 ms class). */
const usesStorage = (r: Route): boolean =>
  Object.keys(r.uses.buckets ?? {}).length > 0 || Boolean(r.uses.mail) || Boolean(r.uses.sign);

const CDK_DEFAULTS = {
  format: 'esm' as const,
  target: 'node22',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  external: [] as string[],
  alias: {} as Record<string, string>,
  banner:
    "import { createRequire as __frpCreateRequire } from 'node:module'; const require = __frpCreateRequire(import.meta.url);",
};

/** The stack's `--alias` esbuild argument(s) ("from=to") as esbuild's `alias` option. */
function aliasesOf(args: Record<string, string | boolean | string[]> | undefined): Record<string, string> {
  const raw = args?.['--alias'];
  if (typeof raw !== 'string') return {};
  const at = raw.indexOf('=');
  return { [raw.slice(0, at)]: raw.slice(at + 1) };
}

/**
 * The esbuild options of the CDK stack (infra/lib/constructs/api.ts, routeCode), read from it so the
 * bench bundles exactly what is deployed; the defaults above if that module cannot be loaded.
 */
async function stackOptions(): Promise<{ options: typeof CDK_DEFAULTS; from: string }> {
  try {
    const { routeCode } = await import('../../infra/lib/constructs/api');
    const first = ROUTES[0]!;
    const b = routeCode(first, false).bundling ?? {};
    return {
      from: 'infra/lib/constructs/api.ts',
      options: {
        format: b.format === 'esm' ? 'esm' : CDK_DEFAULTS.format,
        target: b.target ?? CDK_DEFAULTS.target,
        minify: b.minify ?? false,
        sourcemap: b.sourceMap ?? false,
        sourcesContent: b.sourcesContent ?? true,
        mainFields: b.mainFields ?? CDK_DEFAULTS.mainFields,
        external: b.externalModules ?? ['@aws-sdk/*'],
        banner: b.banner ?? '',
        alias: aliasesOf(b.esbuildArgs),
      },
    };
  } catch (e) {
    progress(`could not read the stack's bundling options (${(e as Error).message}); using the defaults`);
    return { from: 'bench defaults (platform node, node22, esm, minify, sourcemap)', options: CDK_DEFAULTS };
  }
}

/** Dummy values for every variable the CDK stack gives this route's Lambda. */
function lambdaEnv(r: Route): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'eu-central-1',
    AWS_ACCESS_KEY_ID: 'AKIDBENCH',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    API_STAGE: 'dev',
    // set by Lambda itself; the logger then maps logged stacks from the source map (decision 349)
    AWS_LAMBDA_FUNCTION_NAME: `frp-bench-${r.id}`,
  };
  for (const t of r.uses.tables) env[tableEnv(t)] = `frp-bench-${t}`;
  for (const b of Object.keys(r.uses.buckets ?? {})) env[bucketEnv(b as never)] = `frp-bench-${b}`;
  if (r.access !== 'public' || r.uses.tables.includes('users'))
    env.TOKEN_SECRET_ARN = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:frp-token';
  if (r.uses.mail) env.MAIL_FROM = 'portal@example.com';
  if (r.uses.sign) env.SIGNING_KEY_ID = '11111111-2222-3333-4444-555555555555';
  return env;
}

interface Bundle {
  /** set for the what-if row: started with --enable-source-maps (the stack's setting before decision 349) */
  whatIf?: 'source-maps-at-load';
  route: Route;
  file: string;
  bytes: number;
  gzBytes: number;
  clients: string[];
  /** bytes of zod in the bundle (`import * as z` lets esbuild drop its locales; `import { z }` kept them all) */
  zodBytes: number;
  initMs: number[];
}

async function bundle(route: Route, dir: string, o: typeof CDK_DEFAULTS): Promise<Bundle> {
  const out = join(dir, route.id);
  mkdirSync(out, { recursive: true });
  const file = join(out, 'index.mjs');
  const options: BuildOptions = {
    entryPoints: [join(ROOT, 'lambdas', 'handlers', `${handlerFile(route.id)}.ts`)],
    bundle: true,
    platform: 'node',
    outfile: file,
    format: o.format,
    target: o.target,
    minify: o.minify,
    sourcemap: o.sourcemap,
    sourcesContent: o.sourcesContent,
    mainFields: o.mainFields,
    external: o.external,
    banner: o.banner ? { js: o.banner } : undefined,
    alias: o.alias,
    metafile: true,
    logLevel: 'silent',
  };
  const result = await build(options);
  const code = readFileSync(file);
  const inputs = Object.keys(result.metafile?.inputs ?? {});
  const output = Object.values(result.metafile?.outputs ?? {}).find((o) => o.entryPoint);
  const zodBytes = Object.entries(output?.inputs ?? {})
    .filter(([f]) => f.includes('node_modules/zod/'))
    .reduce((n, [, v]) => n + v.bytesInOutput, 0);
  const clients = Object.entries(SDK_CLIENTS)
    .filter(([pkg]) => inputs.some((i) => i.includes(`node_modules/${pkg}/`)))
    .map(([, short]) => short);
  return {
    route,
    file,
    bytes: code.length,
    gzBytes: gzipSync(code, { level: 9 }).length,
    clients,
    zodBytes,
    initMs: [],
  };
}

/** Bundles every handler as the stack does and times its module init in fresh processes. */
export async function benchBundles(tmp: string): Promise<Row[]> {
  const dir = join(tmp, 'bundles');
  mkdirSync(dir, { recursive: true });
  const { options, from } = await stackOptions();
  progress(`bundling ${ROUTES.length} handlers with the options of ${from}`);
  const bundles: Bundle[] = [];
  for (let i = 0; i < ROUTES.length; i += 4)
    bundles.push(...(await Promise.all(ROUTES.slice(i, i + 4).map((r) => bundle(r, dir, options)))));

  // the same listPackages bundle, started as before decision 349 (the source map parsed at load)
  const plain = bundles.find((b) => b.route.id === 'listPackages' && !b.whatIf);
  if (plain) bundles.push({ ...plain, whatIf: 'source-maps-at-load', initMs: [] });

  // Module init only: the clock starts after Node itself is up, as Lambda's Init phase does for the handler.
  const timer = join(dir, 'time-import.mjs');
  writeFileSync(
    timer,
    'const t = performance.now(); await import(process.argv[2]); console.log(String(performance.now() - t));\n',
  );
  // Rounds over all handlers rather than 15 runs of one after another: load from others on this shared
  // machine then spreads over every row instead of hitting a few.
  for (let round = 0; round < RUNS; round++) {
    progress(`module init, round ${round + 1} of ${RUNS}`);
    for (const b of bundles) {
      const env = lambdaEnv(b.route);
      if (b.whatIf === 'source-maps-at-load') env.NODE_OPTIONS = '--enable-source-maps';
      const { stdout } = await run(process.execPath, [timer, b.file], { env });
      b.initMs.push(Number(stdout.trim()));
    }
  }

  const rows: Row[] = [];
  for (const b of bundles) {
    const storage = usesStorage(b.route);
    const limit = storage ? WITH_STORAGE_MS : DYNAMO_ONLY_MS;
    const init = median(b.initMs);
    const what = `${b.route.id} (${storage ? 'S3/KMS/SES' : 'DynamoDB only'})`;
    rows.push({
      section: SECTION,
      name: b.whatIf ? `what if: ${what} with --enable-source-maps` : what,
      value: `init ${ms(init)} · ${kb(b.bytes, 0)} (${kb(b.gzBytes, 0)} gz; zod ${kb(b.zodBytes, 0)}) · sdk ${b.clients.join('+')}`,
      target: `init ≤ ${limit} ms`,
      verdict: b.whatIf ? 'info' : verdict(init <= limit),
    });
  }
  const real = bundles.filter((b) => !b.whatIf);
  const all = real.map((b) => median(b.initMs));
  rows.push(
    info(
      SECTION,
      'all handlers: init median range',
      `${ms(Math.min(...all))} – ${ms(Math.max(...all))}; size ${kb(Math.min(...real.map((b) => b.bytes)), 0)} – ${kb(Math.max(...real.map((b) => b.bytes)), 0)}`,
    ),
  );
  return rows;
}
