import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  type BatchWriteCommandOutput,
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { localDynamoConfig, localTable } from '../../infra/local/local-aws';
import type { PackageRecord } from '../../lambdas/ports/package-repository';
import { toPackage } from '../../lambdas/services/package-service';
import type { Package } from '../../shared/api/contracts/packages';
import { MAX_RESPONSE_BYTES } from '../../shared/api/runtime';
import { seededApproverKeys } from '../support/seeded-approvers';
import { startStackProcess } from '../support/stack-process';
import { type Client, expectStatus, makeClient, SEEDED } from './client';
import {
  info,
  mb,
  ms,
  notMeasured,
  onInterrupt,
  percentile,
  progress,
  QUICK,
  type Row,
  verdict,
} from './report';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
const SECTION = 'lists';
const PACKAGES = 10_000;
const CONCURRENCY = [1, 10, 50] as const;
const P99_TARGET_MS = 50;
export const TABLE = localTable('packages');
const PAGE = 100;
/**
 * partitions of the bare-Query comparison: the header as a nested map (how items were stored before
 * decision 051; the repository now writes one JSON string), and no header at all
 */
const HEADER_MAP = 'BENCH_HEADER_AS_MAP';
const NO_HEADER = 'BENCH_NO_HEADER';
const SLIM = QUICK ? 300 : 1000;
/** seconds of load per paged or bare measurement (whole lists are one call each) */
const SECONDS = QUICK ? { page: 5, bare: 3 } : { page: 15, bare: 10 };

export type Item = Record<string, unknown>;

/**
 * A local stack for a list bench (stopped on Ctrl-C) and a document client on its DynamoDB Local; `env`
 * goes to the stack process (e.g. DYNAMODB_HEAP, infra/local/emulators.ts).
 */
export async function benchStack(env: Record<string, string> = {}) {
  progress('starting a local stack');
  const stack = await startStackProcess({ LOGIN_MAX_FAILURES_PER_SOURCE: '100000', ...env });
  const forget = onInterrupt(() => stack.stop());
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient(localDynamoConfig(stack.dynamoEndpoint)), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return { stack, forget, doc };
}

/** One real package made through the API (upload, generate, DCC, notify): the shape every copy takes. */
export async function templatePackage(api: Client): Promise<{ id: string; token: string }> {
  const dev = await api.login(SEEDED.designDev);
  const ids = Object.fromEntries(
    await Promise.all(
      (['designTest', 'lead', 'reliability', 'release'] as const).map(
        async (k) => [k, (await api.login(SEEDED[k])).id] as const,
      ),
    ),
  );
  const form = new FormData();
  form.append('resourceFile', new Blob([new Uint8Array(randomBytes(4096))]), 'bench-list.bin');
  const res = expectStatus(
    await api.call<{ resource: string }>('/resources/patch/dev?name=bench-list-patch', {
      method: 'POST',
      token: dev.token,
      body: form,
    }),
    201,
    'upload',
  );
  const resourceId = (JSON.parse(res.body.resource) as { id: string }).id;
  const gen = expectStatus(
    await api.call<{ package: string }>(`/resources/${resourceId}/generate-package`, {
      method: 'POST',
      token: dev.token,
      body: {
        packageName: 'bench-list-template',
        packageType: 'DEV_SIGNED',
        note: 'Raises the occlusion alarm threshold of the infusion pump to 800 mmHg',
      },
    }),
    201,
    'generate-package',
  );
  const pkgId = (JSON.parse(gen.body.package) as Package).id;
  const dcc = expectStatus(
    await api.call<{ dccUuid: string }>('/dcc', {
      method: 'POST',
      token: dev.token,
      body: { deviceId: 'PUMP-BENCH', telemetryType: 'TelB', messageLimit: 64, deviceLimit: 4096 },
    }),
    201,
    'dcc',
  );
  expectStatus(
    await api.call(`/packages/${pkgId}/dcc/${dcc.body.dccUuid}`, { method: 'POST', token: dev.token }),
    200,
    'attach dcc',
  );
  expectStatus(
    await api.call(`/packages/${pkgId}/notify-approvers`, {
      method: 'POST',
      token: dev.token,
      body: {
        approvers: seededApproverKeys('DEV_SIGNED').map(({ role, key }) => ({ role, id: ids[key] })),
        signer: ids.release,
      },
    }),
    200,
    'notify',
  );
  return { id: pkgId, token: dev.token };
}

/**
 * 10,000 copies of the stored template item (new id, key, name and times), written with BatchWrite by
 * `writers` requests at a time; `from`: the first copy's number (names and times go on from there).
 */
export async function seed(
  doc: DynamoDBDocumentClient,
  template: Item,
  count = PACKAGES,
  from = 1,
  writers = 4,
): Promise<void> {
  const base = Date.parse(String(template.createdAt));
  const items: Item[] = [];
  for (let i = from; i < from + count; i++) {
    const id = randomUUID();
    const at = new Date(base - i * 60_000).toISOString();
    items.push({
      ...template,
      pk: `PKG#${id}`,
      id,
      name: `bench-package-${String(i).padStart(5, '0')}`,
      createdAt: at,
      updatedAt: at,
      // delivered copies: each delivery started when the copy was made, as deliveries spread over time
      ...(template.deliveryStartedAt ? { deliveryStartedAt: at } : {}),
    });
  }
  const batches: Item[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  const worker = async () => {
    for (let batch = batches.shift(); batch; batch = batches.shift()) {
      let request: BatchWriteCommandOutput['UnprocessedItems'] = {
        [TABLE]: batch.map((Item) => ({ PutRequest: { Item } })),
      };
      while (request && Object.keys(request).length > 0) {
        const r: BatchWriteCommandOutput = await doc.send(new BatchWriteCommand({ RequestItems: request }));
        request = r.UnprocessedItems;
      }
    }
  };
  await Promise.all(Array.from({ length: writers }, worker));
}

const stageQuery = (stage: string, limit?: number, start?: Item): QueryCommandInput => ({
  TableName: TABLE,
  IndexName: 'byListStage',
  KeyConditionExpression: '#k = :v',
  ExpressionAttributeNames: { '#k': 'listStage' },
  ExpressionAttributeValues: { ':v': stage },
  ScanIndexForward: false,
  ...(limit ? { Limit: limit } : {}),
  ...(start ? { ExclusiveStartKey: start } : {}),
});

/** The repository's list Query without the API around it: every page of the index (queryAll). */
async function queryWhole(
  doc: DynamoDBDocumentClient,
  stage: 'DEV' | 'RELEASE',
  stats = { pages: 0 },
): Promise<Item[]> {
  const out: Item[] = [];
  let start: Item | undefined;
  do {
    const r = await doc.send(new QueryCommand(stageQuery(stage, undefined, start)));
    stats.pages++;
    out.push(...(r.Items ?? []));
    start = r.LastEvaluatedKey;
  } while (start);
  return out;
}

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
async function autocannon(
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

const loadValue = (l: Load): string =>
  `p50 ${ms(l.p50)} · p99 ${ms(l.p99)} · ${l.rps.toFixed(1)} req/s · ${l.count} ok${l.failed ? ` · ${l.failed} failed` : ''}`;

const clients = (c: number) => `${c} client${c > 1 ? 's' : ''}`;

/** A row measured against the p99 budget at 10 clients; other concurrencies are context. */
function loadRow(name: string, c: number, l: Load): Row {
  const judged = c === 10;
  return {
    section: SECTION,
    name: `${name}, ${clients(c)}`,
    value: loadValue(l),
    target: judged ? `p99 ≤ ${P99_TARGET_MS} ms` : '—',
    verdict: judged ? verdict(l.p99 <= P99_TARGET_MS && l.failed === 0) : 'info',
  };
}

/** Lets requests still running from the last load finish before the next measurement starts. */
async function settle(api: Client, token: string): Promise<void> {
  await new Promise((r) => setTimeout(r, 2000));
  await api.call('/dev/packages?limit=1', { token });
}

/** Median latency of a small bare Query (10 items) with nothing else running: the emulator at rest. */
async function idleLatency(doc: DynamoDBDocumentClient): Promise<number> {
  const probe = await closedLoop(1, { requests: 7 }, () => doc.send(new QueryCommand(stageQuery('DEV', 10))));
  return probe.p50;
}

/**
 * Waits until DynamoDB Local answers a small Query about as fast as at rest again: requests the local
 * server timed out on go on querying in its process for a while, and would load the next measurement.
 */
async function quiesce(doc: DynamoDBDocumentClient, idle: number): Promise<void> {
  const t = performance.now();
  let calm = 0;
  while (calm < 2 && performance.now() - t < 15 * 60_000) {
    const probe = await closedLoop(1, { requests: 1 }, () =>
      doc.send(new QueryCommand(stageQuery('DEV', 10))),
    );
    calm = probe.p50 <= idle * 3 + 20 ? calm + 1 : 0;
    if (calm < 2) await new Promise((r) => setTimeout(r, 3000));
  }
  progress(`DynamoDB Local back at rest after ${((performance.now() - t) / 1000).toFixed(0)} s`);
}

/** One call with a generous timeout: the status, how long it took, and its size or error. */
async function oneCall(url: string, token: string): Promise<{ status: number; ms: number; detail: string }> {
  const t = performance.now();
  try {
    const res = await fetch(url, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(600_000),
    });
    const text = await res.text();
    const took = performance.now() - t;
    if (res.ok) return { status: res.status, ms: took, detail: mb(Buffer.byteLength(text)) };
    const msg = (JSON.parse(text) as { errorMessage?: string }).errorMessage ?? text;
    return { status: res.status, ms: took, detail: msg.slice(0, 90) };
  } catch (e) {
    return { status: 0, ms: performance.now() - t, detail: (e as Error).message };
  }
}

/** Copies of the template in the release list: as many as fit well under the 6 MB cap. */
const asRelease = (template: Item): Item => ({
  ...template,
  listStage: 'RELEASE',
  resourceStage: 'RELEASE',
  type: 'RELEASE_SIGNED',
});

/**
 * Package lists on a local stack: 10,000 packages in the dev list (more than Lambda's 6 MB response can
 * carry whole) and, in the release list, as many as still fit, to see what whole lists cost below the cap.
 * Each is measured beside the bare DynamoDB Local Query of the same index.
 */
export async function benchLists(_tmp: string): Promise<Row[]> {
  const { stack, forget, doc } = await benchStack();
  const rows: Row[] = [];
  try {
    const api = makeClient(stack.url);
    const { id, token } = await templatePackage(api);
    const stored = await doc.send(new GetCommand({ TableName: TABLE, Key: { pk: `PKG#${id}`, sk: 'PKG' } }));
    if (!stored.Item) throw new Error('the template package is not in the table');
    const template = stored.Item;

    // Sizes: one stored item, one list entry (JSON text inside JSON, as the API sends it), the 6 MB cap.
    const body = (n: number) =>
      Buffer.byteLength(
        JSON.stringify({
          packages: JSON.stringify(
            Array.from({ length: n }, () => toPackage(template as unknown as PackageRecord)),
          ),
        }),
      );
    const entry = (body(100) - body(0)) / 100;
    const capAt = Math.floor((MAX_RESPONSE_BYTES - body(0)) / entry);
    const fitting = Math.floor((capAt * 0.9) / 100) * 100;
    rows.push(
      info(
        SECTION,
        'one package: stored item / list entry',
        `${(Buffer.byteLength(JSON.stringify(template)) / 1024).toFixed(1)} KB / ${(entry / 1024).toFixed(2)} KB (${PACKAGES.toLocaleString('en')} = ${mb(body(PACKAGES))} of list)`,
      ),
      info(
        SECTION,
        "whole list vs Lambda's 6 MB response",
        `over the cap from ${capAt.toLocaleString('en')} packages on`,
        `≤ ${mb(MAX_RESPONSE_BYTES, 0)}`,
      ),
    );

    progress(
      `seeding ${PACKAGES} dev and ${fitting} release packages (BatchWrite, the repository's item shape)`,
    );
    const t0 = performance.now();
    await seed(doc, template, PACKAGES);
    await seed(doc, asRelease(template), fitting);
    // Two small partitions for the bare Query only (no list route reads them): the same items with the
    // header as a nested map (the form before decision 051), and without it.
    const { header, ...withoutHeader } = template;
    const headerMap = typeof header === 'string' ? JSON.parse(header) : header;
    await seed(doc, { ...withoutHeader, header: headerMap, listStage: HEADER_MAP }, SLIM);
    await seed(doc, { ...withoutHeader, listStage: NO_HEADER }, SLIM);
    progress(`seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

    const idle = await idleLatency(doc);
    // 1. Whole lists, as the UI asks for them today: the bare Query of every page first (nothing else
    // running), then one call each. Under load they would only fail more: the local server answers 503 at
    // Lambda's 28 s, and a handler it gave up on keeps querying, so concurrent calls are not measured.
    progress(`bare Query of all ${fitting} release packages, one call`);
    const stats = { pages: 0 };
    const bare = await closedLoop(1, { requests: 1 }, () => queryWhole(doc, 'RELEASE', stats));
    rows.push(
      info(
        SECTION,
        `bare Query byListStage, all pages of ${fitting.toLocaleString('en')}, one call`,
        `${ms(bare.p50)} (${stats.pages} pages: a Query reads at most 1 MB)`,
      ),
    );
    progress(`one whole-list call of ${fitting} release packages`);
    const fits = await oneCall(`${stack.url}/dev/release/packages`, token);
    rows.push(
      info(
        SECTION,
        `GET /dev/release/packages, whole list of ${fitting.toLocaleString('en')} (fits 6 MB), one call`,
        `${fits.status} after ${ms(fits.ms)}: ${fits.detail}`,
      ),
    );
    await quiesce(doc, idle);
    progress(`one whole-list call of ${PACKAGES} dev packages`);
    const big = await oneCall(`${stack.url}/dev/dev/packages`, token);
    rows.push({
      section: SECTION,
      name: `GET /dev/dev/packages, whole list of ${PACKAGES.toLocaleString('en')}, one call`,
      value:
        big.status === 503 && big.ms >= 27_000
          ? `503 at Lambda's 28 s deadline (${ms(big.ms)}); would be ${mb(body(PACKAGES))}, over the 6 MB cap anyway`
          : `${big.status || 'no answer'} after ${ms(big.ms)}: ${big.detail}`,
      target: `p99 ≤ ${P99_TARGET_MS} ms at 10 clients`,
      verdict: verdict(big.status === 200 && big.ms <= P99_TARGET_MS),
    });
    rows.push(
      notMeasured(
        SECTION,
        `GET /dev/dev/packages (whole list of ${PACKAGES.toLocaleString('en')}), 1/10/50 clients`,
        'one call alone fails (above); paged calls of the same route below',
        `p99 ≤ ${P99_TARGET_MS} ms at 10 clients`,
      ),
    );
    await quiesce(doc, idle);

    // 3. Pages of the dev list (?limit=&cursor=), first and deep, beside bare one-page Queries.
    rows.push(...(await pagedRows(api, doc, token, stack.url)));
  } finally {
    doc.destroy();
    await stack.stop();
    forget();
  }
  return rows;
}

async function pagedRows(api: Client, doc: DynamoDBDocumentClient, token: string, baseUrl: string) {
  const rows: Row[] = [];
  const probe = await api.call<{ packages: string; nextCursor?: string }>(`/dev/packages?limit=${PAGE}`, {
    token,
  });
  if (probe.status !== 200 || typeof probe.body.nextCursor !== 'string') {
    rows.push(
      notMeasured(SECTION, 'GET /dev/dev/packages?limit=', `the server does not page (${probe.status})`, '—'),
    );
    return rows;
  }
  for (const c of CONCURRENCY) {
    progress(`first page of ${PAGE}, ${clients(c)}`);
    rows.push(
      loadRow(
        `GET /dev/dev/packages?limit=${PAGE} (first page)`,
        c,
        await autocannon(`${baseUrl}/dev/dev/packages?limit=${PAGE}`, token, c, { seconds: SECONDS.page }),
      ),
    );
    await settle(api, token);
  }

  // What a UI that fetches every page does: the whole dev list in pages of 1,000, one after another.
  progress('walking the whole dev list in pages of 1000');
  const t = performance.now();
  let cursor: string | undefined;
  let pages = 0;
  let count = 0;
  let deep: string | undefined;
  do {
    const r = await api.call<{ packages: string; nextCursor?: string }>(
      `/dev/packages?limit=1000${cursor ? `&cursor=${cursor}` : ''}`,
      { token },
    );
    if (r.status !== 200)
      throw new Error(`page ${pages + 1}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    count += (JSON.parse(r.body.packages) as unknown[]).length;
    pages++;
    cursor = r.body.nextCursor;
    if (count >= PACKAGES * 0.9 && !deep) deep = cursor;
  } while (cursor);
  rows.push(
    info(
      SECTION,
      'whole dev list, ?limit=1000 page after page (a UI loading all), one client',
      `${count.toLocaleString('en')} packages in ${ms(performance.now() - t)}: ${pages} calls, ~${Math.round(count / pages)} a page (1 MB Query cap)`,
    ),
  );
  if (deep) {
    progress(`a page of ${PAGE} 90 % down the list, 10 clients`);
    rows.push(
      loadRow(
        `GET /dev/dev/packages?limit=${PAGE}&cursor= (90 % down)`,
        10,
        await autocannon(`${baseUrl}/dev/dev/packages?limit=${PAGE}&cursor=${deep}`, token, 10, {
          seconds: SECONDS.page,
        }),
      ),
    );
    await settle(api, token);
  }

  for (const c of CONCURRENCY) {
    progress(`bare Query of one page, ${clients(c)}`);
    rows.push(
      info(
        SECTION,
        `bare Query byListStage, one page of ${PAGE}, ${clients(c)}`,
        loadValue(
          await closedLoop(c, { seconds: SECONDS.bare }, () =>
            doc.send(new QueryCommand(stageQuery('DEV', PAGE))),
          ),
        ),
      ),
    );
  }
  for (const [partition, what] of [
    [HEADER_MAP, 'header as a nested map (before decision 051)'],
    [NO_HEADER, 'items without the header'],
  ] as const) {
    progress(`bare Query of one page, ${what}, 10 clients`);
    rows.push(
      info(
        SECTION,
        `bare Query, one page of ${PAGE}, ${what} (decision 051), 10 clients`,
        loadValue(
          await closedLoop(10, { seconds: SECONDS.bare }, () =>
            doc.send(new QueryCommand(stageQuery(partition, PAGE))),
          ),
        ),
      ),
    );
  }
  const get = await closedLoop(10, { seconds: SECONDS.bare }, () =>
    doc.send(new GetCommand({ TableName: TABLE, Key: { pk: `PKG#none`, sk: 'PKG' } })),
  );
  rows.push(info(SECTION, 'bare GetItem, 10 clients', loadValue(get)));
  return rows;
}
