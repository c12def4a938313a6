import {
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { PackageRecord } from '../../lambdas/ports/package-repository';
import { toPackage } from '../../lambdas/services/package-service';
import { MAX_RESPONSE_BYTES } from '../../shared/api/runtime';
import { type Client, makeClient } from './client';
import { benchStack, type Item, PACKAGES, seed, TABLE, templatePackage } from './list-seed';
import { autocannon, closedLoop, type Load } from './load';
import { info, mb, ms, notMeasured, progress, QUICK, type Row, verdict } from './report';

const SECTION = 'lists';
const CONCURRENCY = [1, 10, 50] as const;
const P99_TARGET_MS = 50;
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
