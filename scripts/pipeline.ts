/**
 * The pipeline step: `npm run pipeline -- …` uploads a build's resource (multipart, with
 * progress), creates the DRAFT package with its header from a JSON file, attaches a DCC and prints the
 * package's link for the engineer who notifies the approvers. It never approves, signs or notifies: those
 * need a person. One file, Node ≥ 20 and its fetch only; docs/pipelines.md shows a CI job using it.
 *
 *   FRP_TOKEN=frp_… npm run pipeline -- --url https://portal.example.com \
 *     --file build/pump.bin --resource-name pump-1.4.2 --stage dev \
 *     --package-name "Pump 1.4.2" --package-type DEV_UNSIGNED --note "CI build 812" \
 *     [--header header.json] [--dcc <dcc id>] [--metadata model.json] \
 *     [--provenance provenance.json | --repository <url> --commit <sha> --build-id <id> --build-url <https url> \
 *      --builder <name>] [--sbom bom.cdx.json]
 *
 * Provenance and SBOM are attached to the resource after the upload and before the draft, so
 * the package pins them; the SBOM file is sent as its text and stored byte for byte.
 *
 * The token comes from the environment (FRP_TOKEN), never from the command line (it would show in `ps`
 * and the CI log). Exit code 0 with the link as the last line of stdout (or with the usage for --help);
 * 1 and the API's reason when refused; 2 with the usage when the command line cannot be read.
 */
import { open, readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { parseArgs } from 'node:util';

export interface PipelineOptions {
  /** the portal's address (the site; the API is under /dev) */
  url: string;
  token: string;
  file: string;
  resourceName: string;
  stage: 'dev' | 'release';
  packageName: string;
  packageType: string;
  note: string;
  header?: string;
  dcc?: string;
  metadata?: string;
  /** a JSON file with repository, commit, buildId, buildUrl and builder (the flags below override its fields) */
  provenance?: string;
  repository?: string;
  commit?: string;
  buildId?: string;
  buildUrl?: string;
  builder?: string;
  /** a CycloneDX or SPDX JSON file */
  sbom?: string;
}

type Json = Record<string, unknown>;

class PipelineError extends Error {}
/** A command line that cannot be read (an unknown flag, a missing value): exit code 2, as shells expect. */
class UsageError extends PipelineError {}

export const USAGE = `usage: FRP_TOKEN=frp_… npm run pipeline -- [flags]

Uploads a build, drafts its package and prints the package's link (the token comes from FRP_TOKEN).

required:
  --url <portal>              the portal's address, e.g. https://portal.example.com
  --file <file>               the build to upload (.tflite uploads a model and needs --metadata)
  --resource-name <name>      the resource's name
  --stage dev|release         the resource's stage
  --package-name <name>       the draft package's name
  --package-type <type>       e.g. DEV_UNSIGNED
  --note <text>               the package's note

optional:
  --header <header.json>      the package header
  --dcc <dcc id>              attach this DCC (its id is shown beside its name in the portal's DCC picker)
  --metadata <model.json>     the model metadata (needed for a .tflite model)
  --provenance <file.json>    build provenance: repository, commit, buildId, buildUrl, builder
  --repository <url>          provenance: the repository (overrides the file's field)
  --commit <sha>              provenance: the commit
  --build-id <id>             provenance: the build id
  --build-url <https url>     provenance: the build's page
  --builder <name>            provenance: the builder
  --sbom <sbom.json>          a CycloneDX or SPDX JSON SBOM
  --help, -h                  print this usage and exit

exit codes: 0 done (the link is the last line of stdout), 1 refused or failed, 2 unreadable command line`;

const FLAGS = {
  help: { type: 'boolean', short: 'h' },
  url: { type: 'string' },
  file: { type: 'string' },
  'resource-name': { type: 'string' },
  stage: { type: 'string' },
  'package-name': { type: 'string' },
  'package-type': { type: 'string' },
  note: { type: 'string' },
  header: { type: 'string' },
  dcc: { type: 'string' },
  metadata: { type: 'string' },
  provenance: { type: 'string' },
  repository: { type: 'string' },
  commit: { type: 'string' },
  'build-id': { type: 'string' },
  'build-url': { type: 'string' },
  builder: { type: 'string' },
  sbom: { type: 'string' },
} as const;

/** Reads the flags; parseArgs' own TypeError (unknown flag, missing value) becomes a UsageError naming it. */
function flags(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\n${USAGE}`);
  }
}

/** `help` when the usage was asked for; otherwise the options of a run. */
export function commandLine(
  argv: string[],
  env: NodeJS.ProcessEnv,
): { kind: 'help' } | { kind: 'run'; options: PipelineOptions } {
  if (flags(argv).help) return { kind: 'help' };
  return { kind: 'run', options: options(argv, env) };
}

function options(argv: string[], env: NodeJS.ProcessEnv): PipelineOptions {
  const values = flags(argv);
  const need = (k: keyof typeof values): string => {
    const v = values[k];
    if (typeof v !== 'string' || v.length === 0) throw new PipelineError(`--${k} is required\n${USAGE}`);
    return v;
  };
  const token = env.FRP_TOKEN;
  if (!token) throw new PipelineError(`FRP_TOKEN is not set: make an access token in Settings\n${USAGE}`);
  const stage = need('stage').toLowerCase();
  if (stage !== 'dev' && stage !== 'release') throw new PipelineError('--stage must be dev or release');
  return {
    url: need('url').replace(/\/+$/, ''),
    token,
    file: need('file'),
    resourceName: need('resource-name'),
    stage,
    packageName: need('package-name'),
    packageType: need('package-type'),
    note: need('note'),
    header: values.header,
    dcc: values.dcc,
    metadata: values.metadata,
    provenance: values.provenance,
    repository: values.repository,
    commit: values.commit,
    buildId: values['build-id'],
    buildUrl: values['build-url'],
    builder: values.builder,
    sbom: values.sbom,
  };
}

const PROVENANCE_FLAGS = {
  repository: 'repository',
  commit: 'commit',
  buildId: 'build-id',
  buildUrl: 'build-url',
  builder: 'builder',
} as const;

/** The build provenance to attach: the file's fields, each overridden by its flag; undefined when none given. */
async function provenanceOf(o: PipelineOptions): Promise<Record<string, string> | undefined> {
  let fromFile: Json = {};
  if (o.provenance) {
    try {
      fromFile = JSON.parse(await readFile(o.provenance, 'utf8')) as Json;
    } catch (e) {
      throw new PipelineError(`${o.provenance} is not readable JSON: ${(e as Error).message}`);
    }
  }
  const keys = Object.keys(PROVENANCE_FLAGS) as (keyof typeof PROVENANCE_FLAGS)[];
  const p: Record<string, string> = {};
  for (const k of keys) {
    const v = o[k] ?? fromFile[k];
    if (typeof v === 'string' && v !== '') p[k] = v;
  }
  if (!o.provenance && Object.keys(p).length === 0) return undefined;
  const missing = keys.filter((k) => p[k] === undefined);
  if (missing.length)
    throw new PipelineError(
      `build provenance needs ${missing.map((k) => `--${PROVENANCE_FLAGS[k]}`).join(', ')} (or the field in --provenance)`,
    );
  return p;
}

/** One API call with the token; a refusal becomes an error carrying the API's own reason. */
async function call<T = Json>(o: PipelineOptions, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${o.url}/dev${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${o.token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: Json = {};
  try {
    parsed = text ? (JSON.parse(text) as Json) : {};
  } catch {
    parsed = { errorMessage: text };
  }
  if (!res.ok)
    throw new PipelineError(`${method} ${path}: ${res.status} ${String(parsed.errorMessage ?? text)}`);
  return parsed as T;
}

const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Uploads the file in the parts the server chose, reporting progress; answers the registered resource. */
async function upload(
  o: PipelineOptions,
  log: (line: string) => void,
): Promise<{ id: string; name: string }> {
  const size = (await stat(o.file)).size;
  const model = extname(o.file).toLowerCase() === '.tflite';
  const meta = o.metadata ? await readFile(o.metadata) : undefined;
  if (model && !meta) throw new PipelineError('a model (.tflite) needs --metadata <file.json>');
  const started = await call<{
    uploadId: string;
    partSizeBytes: number;
    partCount: number;
    metadataUrl?: string;
  }>(o, 'POST', '/resources/uploads/multipart', {
    name: o.resourceName,
    resourceType: model ? 'MODEL' : 'PATCH',
    resourceStage: o.stage.toUpperCase(),
    fileName: basename(o.file),
    sizeBytes: size,
    ...(meta && o.metadata ? { metadataFileName: basename(o.metadata), metadataSizeBytes: meta.length } : {}),
  });
  const { uploadId, partSizeBytes, partCount } = started;
  try {
    if (meta && started.metadataUrl) {
      const put = await fetch(started.metadataUrl, { method: 'PUT', body: new Uint8Array(meta) });
      await put.arrayBuffer();
      if (!put.ok) throw new PipelineError(`metadata upload: ${put.status}`);
    }
    const etags: { partNumber: number; etag: string }[] = [];
    const fh = await open(o.file, 'r');
    try {
      let sent = 0;
      for (let first = 1; first <= partCount; first += 100) {
        const numbers = Array.from({ length: Math.min(100, partCount - first + 1) }, (_, i) => first + i);
        const { urls } = await call<{ urls: { partNumber: number; url: string }[] }>(
          o,
          'POST',
          `/resources/uploads/${uploadId}/parts`,
          { partNumbers: numbers },
        );
        for (const { partNumber, url } of urls) {
          const offset = (partNumber - 1) * partSizeBytes;
          const length = Math.min(partSizeBytes, size - offset);
          const buf = Buffer.alloc(length);
          await fh.read(buf, 0, length, offset);
          const put = await fetch(url, { method: 'PUT', body: new Uint8Array(buf) });
          await put.arrayBuffer();
          const etag = put.headers.get('etag');
          if (!put.ok || !etag) throw new PipelineError(`part ${partNumber}: ${put.status}`);
          etags.push({ partNumber, etag });
          sent += length;
          log(
            `uploaded part ${partNumber}/${partCount}: ${(sent / MiB).toFixed(1)} of ${(size / MiB).toFixed(1)} MiB (${Math.round((100 * sent) / Math.max(size, 1))}%)`,
          );
        }
      }
    } finally {
      await fh.close();
    }
    await call(o, 'POST', `/resources/uploads/${uploadId}/complete`, { parts: etags });
  } catch (e) {
    // nothing half-made stays behind: the staged parts go with the upload
    await call(o, 'DELETE', `/resources/uploads/${uploadId}`).catch(() => undefined);
    throw e;
  }
  log('verifying (SHA-256 on the server)…');
  for (;;) {
    const s = await call<{ state: string; resource?: string; errorMessage?: string; verifiedBytes?: number }>(
      o,
      'GET',
      `/resources/uploads/${uploadId}`,
    );
    if (s.state === 'REGISTERED' && s.resource) return JSON.parse(s.resource) as { id: string; name: string };
    if (s.state === 'FAILED')
      throw new PipelineError(`upload refused: ${s.errorMessage ?? 'no reason given'}`);
    await sleep(500);
  }
}

/** The whole step; answers the package link. `log` gets progress lines. */
export async function runPipeline(o: PipelineOptions, log: (line: string) => void): Promise<string> {
  let header: unknown;
  if (o.header) {
    try {
      header = JSON.parse(await readFile(o.header, 'utf8'));
    } catch (e) {
      throw new PipelineError(`${o.header} is not readable JSON: ${(e as Error).message}`);
    }
  }
  // read before the upload: a missing file or field fails the step before anything is stored
  const provenance = await provenanceOf(o);
  let sbom: { fileName: string; content: string } | undefined;
  if (o.sbom) {
    try {
      sbom = { fileName: basename(o.sbom), content: await readFile(o.sbom, 'utf8') };
    } catch (e) {
      throw new PipelineError(`${o.sbom} is not readable: ${(e as Error).message}`);
    }
  }
  const resource = await upload(o, log);
  log(`resource ${resource.name} registered (${resource.id})`);
  if (provenance || sbom) {
    await call(o, 'PUT', `/resources/${resource.id}/provenance`, {
      ...(provenance ? { provenance } : {}),
      ...(sbom ? { sbom } : {}),
    });
    log(
      [provenance ? `provenance (commit ${provenance.commit})` : '', sbom ? `SBOM ${sbom.fileName}` : '']
        .filter(Boolean)
        .join(' and ') + ' attached',
    );
  }
  const created = await call<{ package: string }>(o, 'POST', `/resources/${resource.id}/generate-package`, {
    packageName: o.packageName,
    packageType: o.packageType,
    note: o.note,
    ...(header === undefined ? {} : { header }),
  });
  const pkg = JSON.parse(created.package) as { id: string; name: string };
  log(`draft package ${pkg.name} created`);
  if (o.dcc) {
    await call(o, 'POST', `/packages/${pkg.id}/dcc/${encodeURIComponent(o.dcc)}`);
    log(`DCC ${o.dcc} attached`);
  }
  return `${o.url}/packages/open/${encodeURIComponent(pkg.id)}`;
}

async function main(): Promise<void> {
  try {
    const line = commandLine(process.argv.slice(2), process.env);
    if (line.kind === 'help') {
      process.stdout.write(`${USAGE}\n`);
      return;
    }
    const link = await runPipeline(line.options, (l) => process.stderr.write(`${l}\n`));
    process.stdout.write(`${link}\n`);
  } catch (e) {
    process.stderr.write(`pipeline: ${e instanceof PipelineError ? e.message : String(e)}\n`);
    process.exitCode = e instanceof UsageError ? 2 : 1;
  }
}

if (/pipeline\.ts$/.test(process.argv[1] ?? '')) await main();
