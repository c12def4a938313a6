import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { LOCAL_CREDENTIALS, LOCAL_REGION, localTable } from '../../infra/local/local-aws';
import { fromItem } from '../../lambdas/adapters/dynamodb/package-items';
import type { PackageRecord } from '../../lambdas/ports/package-repository';
import type { UserRecord } from '../../lambdas/ports/user-repository';
import type { ListPageQuery } from '../../shared/api/contracts/packages';
import { makeClient, SEEDED } from './client';
import { benchStack, TABLE, templatePackage } from './list-seed';
import { closedLoop, type Load } from './load';
import { info, ms, progress, QUICK, type Row, verdict } from './report';
import { seedPackages } from './seed-packages';

const SECTION = 'growth';
/** the two sizes compared in one run (BENCH_QUICK=1: smaller, for working on the bench) */
const SMALL = QUICK ? 200 : 1_000;
/** BENCH_GROWTH_LARGE overrides the large size (e.g. when 100,000 does not fit the time at hand) */
const LARGE = Number(process.env.BENCH_GROWTH_LARGE ?? (QUICK ? 3_000 : 100_000));
const REQUESTS = QUICK ? 40 : 200;
const CLIENTS = 4;
/**
 * Time bound of the seeding (BENCH_GROWTH_SEED_MINUTES, default 45): when it runs out before the large
 * size, the views are measured at the size reached and the row says so.
 */
const SEED_MINUTES = Number(process.env.BENCH_GROWTH_SEED_MINUTES ?? 45);
/** BatchWrite calls in flight while seeding (BENCH_SEED_WRITERS) */
const WRITERS = Number(process.env.BENCH_SEED_WRITERS ?? 8);
/**
 * DynamoDB Local for 100,000 packages (~1 GB of items, six times over with the ALL-projection indexes):
 * a larger Java heap (BENCH_DYNAMODB_HEAP, default 4g; the tests keep 512m) and the tables in memory
 * instead of the SQLite file (BENCH_DYNAMODB_IN_MEMORY, default 1; 0 for the file): seeding runs at ~300
 * instead of ~20 packages a second on the shared machine (decision 264).
 */
const DYNAMO_ENV = {
  DYNAMODB_HEAP: process.env.BENCH_DYNAMODB_HEAP ?? '4g',
  DYNAMODB_IN_MEMORY: process.env.BENCH_DYNAMODB_IN_MEMORY ?? '1',
};

/**
 * The list views at 100,000 packages (decisions 210–212), each as the SPA asks for it: the home page (its seven calls for a decider) and
 * the first page of each list in the table's default view, plus a searched and a sorted page.
 */
const VIEWS: { name: string; calls: { path: string; query?: ListPageQuery }[] }[] = [
  {
    name: 'home page (7 calls)',
    calls: [
      { path: '/dev/packages/approval' },
      { path: '/release/packages/approval' },
      { path: '/deliver/packages/approval' },
      { path: '/dev/packages/signing' },
      { path: '/release/packages/signing' },
      { path: '/dev/packages', query: { drafts: 'mine' } },
      { path: '/release/packages', query: { drafts: 'mine' } },
    ],
  },
  { name: 'dev list, page 1 of 5', calls: [{ path: '/dev/packages', query: { offset: 0, limit: 5 } }] },
  {
    name: 'dev list, searched',
    calls: [{ path: '/dev/packages', query: { offset: 0, limit: 5, search: 'BENCH-PACKAGE-00004' } }],
  },
  {
    name: 'dev list, sorted by name desc, page 3 of 25',
    calls: [{ path: '/dev/packages', query: { offset: 50, limit: 25, sort: 'name', order: 'desc' } }],
  },
  { name: 'delivery list, page 1', calls: [{ path: '/delivery/packages', query: { offset: 0, limit: 5 } }] },
  {
    name: 'admin package table, page 1',
    calls: [{ path: '/admin/packages', query: { offset: 0, limit: 5 } }],
  },
  // decision 260: the State column sorts by a status that changes, over the same per-Lambda index
  {
    name: 'admin package table, sorted by State desc, page 2',
    calls: [{ path: '/admin/packages', query: { offset: 5, limit: 5, sort: 'status', order: 'desc' } }],
  },
  // decision 221: the lists of their own tables (they do not grow with the packages; read whole per view)
  { name: 'patches, page 1', calls: [{ path: '/resources/patch/dev', query: { offset: 0, limit: 5 } }] },
  { name: 'models, page 1', calls: [{ path: '/resources/model/dev', query: { offset: 0, limit: 5 } }] },
  { name: 'DCC list, page 1', calls: [{ path: '/dcc', query: { offset: 0, limit: 5 } }] },
  { name: 'admin user table, page 1', calls: [{ path: '/admin/users', query: { offset: 0, limit: 5 } }] },
  {
    name: 'admin resource table, page 1',
    calls: [{ path: '/admin/resources', query: { offset: 0, limit: 5 } }],
  },
  { name: 'admin DCC table, page 1', calls: [{ path: '/admin/dcc', query: { offset: 0, limit: 5 } }] },
];

/** Calls until the answer is 200 (at most 40 times): a view whose first call outlasted the gateway's limit. */
async function untilAnswered(call: () => Promise<{ status: number }>): Promise<void> {
  let status = 0;
  for (let i = 0; i < 40 && status !== 200; i++) status = (await call()).status;
  if (status !== 200) throw new Error(`a view still answered ${status} after 40 calls`);
}

const qs = (q?: ListPageQuery) =>
  q
    ? `?${new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString()}`
    : '';

/**
 * Read units per view, measured in this process with the Lambdas' own code (repository, list index and
 * services) on the stack's DynamoDB Local, every request asking for ReturnConsumedCapacity. `warm`: a view
 * after the list index was built (a warm Lambda's steady state); the first view's build is reported apart.
 */
async function readUnits(endpoint: string, userId: string) {
  process.env.AWS_ENDPOINT_URL_DYNAMODB = endpoint;
  process.env.AWS_REGION ??= LOCAL_REGION;
  process.env.AWS_ACCESS_KEY_ID ??= LOCAL_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY ??= LOCAL_CREDENTIALS.secretAccessKey;
  const { dynamo } = await import('../../lambdas/adapters/aws-clients');
  const { DynamoPackageRepository } = await import('../../lambdas/adapters/dynamodb/package-repository');
  const { PackageLists } = await import('../../lambdas/services/packages/package-lists');
  const { listAnswer } = await import('../../lambdas/services/packages/list-answer');
  const { DynamoResourceRepository } = await import('../../lambdas/adapters/dynamodb/resource-repository');
  const { DynamoDccRepository } = await import('../../lambdas/adapters/dynamodb/dcc-repository');
  const { DynamoUserRepository } = await import('../../lambdas/adapters/dynamodb/user-repository');
  // the lists of their own tables read what their handlers read: the whole list, by its index (decision 221)
  const ownTables: Record<string, () => Promise<unknown>> = {
    '/resources/patch/dev': () =>
      new DynamoResourceRepository(localTable('resources')).listByTypeStage('PATCH', 'DEV'),
    '/resources/model/dev': () =>
      new DynamoResourceRepository(localTable('resources')).listByTypeStage('MODEL', 'DEV'),
    '/admin/resources': () => new DynamoResourceRepository(localTable('resources')).listAll(),
    '/dcc': () => new DynamoDccRepository(localTable('dcc')).list(),
    '/admin/dcc': () => new DynamoDccRepository(localTable('dcc')).list(),
    '/admin/users': () => new DynamoUserRepository(localTable('users')).list(),
  };
  const units = { total: 0 };
  dynamo().middlewareStack.add(
    (next) => async (args) => {
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      const used = (out.output as { ConsumedCapacity?: unknown }).ConsumedCapacity;
      for (const c of Array.isArray(used) ? used : used ? [used] : [])
        units.total += Number((c as { CapacityUnits?: number }).CapacityUnits ?? 0);
      return out;
    },
    { step: 'initialize', name: 'benchConsumedCapacity' },
  );
  const repo = new DynamoPackageRepository(TABLE, () => localTable('resources'));
  const lists = new PackageLists(repo);
  const user = { id: userId } as UserRecord;
  const list = (path: string) =>
    path.startsWith('/delivery')
      ? 'DELIVERY'
      : path.startsWith('/admin')
        ? 'ALL'
        : path.startsWith('/dev')
          ? 'DEV'
          : 'RELEASE';
  const call = async (path: string, query?: ListPageQuery) => {
    const own = ownTables[path];
    if (own) return own();
    const stage = path.startsWith('/dev') ? 'DEV' : 'RELEASE';
    if (path.endsWith('/approval'))
      return lists.listApproval(user, path.startsWith('/deliver') ? 'DELIVER' : stage);
    if (path.endsWith('/signing')) return lists.listSigning(user, stage);
    if (query?.drafts) return lists.myDrafts(user, stage);
    const l = list(path);
    return listAnswer(l, query, {
      whole: () => Promise.reject(new Error('not measured')),
      page: () => Promise.reject(new Error('not measured')),
      view: (name, req) => lists.view(name, req),
      count: (name) => lists.count(name),
    });
  };
  return async (calls: { path: string; query?: ListPageQuery }[]) => {
    const before = units.total;
    for (const c of calls) await call(c.path, c.query);
    return units.total - before;
  };
}

/**
 * the home page and each list at 1,000 and at 100,000 packages in one run (BENCH_QUICK: 200
 * and 3,000): p99 over HTTP at 4 clients and DynamoDB read units per view. Goal: flat.
 */
export async function benchGrowth(_tmp: string): Promise<Row[]> {
  const { stack, forget, doc } = await benchStack(DYNAMO_ENV);
  const rows: Row[] = [];
  try {
    const api = makeClient(stack.url);
    const { id } = await templatePackage(api);
    const stored = await doc.send(new GetCommand({ TableName: TABLE, Key: { pk: `PKG#${id}`, sk: 'PKG' } }));
    if (!stored.Item) throw new Error('the template package is not in the table');
    // copies in the dev list and in the delivery list (worst case: every one delivered), none waiting for
    // anyone's decision (their tasks are not copied); read and written by the repository's item mapping
    const record = fromItem(stored.Item);
    const template: PackageRecord = {
      ...record,
      status: 'DELIVERED',
      deliveryStartedAt: record.createdAt,
    };
    const lead = await api.login(SEEDED.lead);
    const admin = await api.login(SEEDED.admin);
    const tokenFor = (path: string) => (path.startsWith('/admin') ? admin.token : lead.token);
    const units = await readUnits(stack.dynamoEndpoint, lead.id);
    const { bumpListEpoch } = await import('../../lambdas/adapters/dynamodb/package-list-index');

    let have = 0;
    const seeded: { n: number; seconds: number; rate: number }[] = [];
    const results: Record<string, { n: number; load: Load; warm: number; build: number }[]> = {};
    let failure: string | undefined;
    let short: string | undefined;
    const seedStart = performance.now();
    for (const n of [SMALL, LARGE]) {
      try {
        progress(
          `seeding packages up to ${n.toLocaleString('en')} (BatchWrite into DynamoDB Local, ${WRITERS} writers, heap ${DYNAMO_ENV.DYNAMODB_HEAP}${DYNAMO_ENV.DYNAMODB_IN_MEMORY === '1' ? ', in memory' : ''})`,
        );
        const t0 = performance.now();
        let reported = 0;
        const written = await seedPackages(doc, TABLE, template, n - have, {
          from: have + 1,
          writers: WRITERS,
          stopAt: seedStart + SEED_MINUTES * 60_000,
          onProgress: (written) => {
            if (written - reported < 5_000) return;
            reported = written;
            const s = (performance.now() - t0) / 1000;
            progress(`  ${(have + written).toLocaleString('en')} packages, ${(written / s).toFixed(0)}/s`);
          },
        });
        const seconds = (performance.now() - t0) / 1000;
        progress(
          `seeded ${written.toLocaleString('en')} in ${seconds.toFixed(0)} s (${(written / seconds).toFixed(0)}/s)`,
        );
        const reached = have + written;
        seeded.push({ n: reached, seconds, rate: written / seconds });
        if (reached < n) {
          short = `seeding stopped at ${reached.toLocaleString('en')} of ${n.toLocaleString('en')} packages: its ${SEED_MINUTES}-minute bound ran out (${(written / seconds).toFixed(0)} packages/s)`;
          progress(short);
        }
        have = reached;
        // out-of-band writes: every Lambda's list index rebuilds at its next view (decision 210)
        await bumpListEpoch(TABLE);
        const build = await units(VIEWS[1]!.calls);
        for (const view of VIEWS) {
          const warm = await units(view.calls);
          // the server's index builds on its first view, as a cold Lambda's would: not in the percentiles.
          // On DynamoDB Local a large build outlasts the local gateway's limit (decision 265): ask again until
          // the view answers, so the percentiles measure the warm view
          for (const c of view.calls)
            await untilAnswered(() => api.call(`${c.path}${qs(c.query)}`, { token: tokenFor(c.path) }));
          const load = await closedLoop(CLIENTS, { requests: REQUESTS }, async () => {
            for (const c of view.calls) {
              const r = await api.call(`${c.path}${qs(c.query)}`, { token: tokenFor(c.path) });
              if (r.status !== 200) throw new Error(`${c.path}: ${r.status}`);
            }
          });
          results[view.name] = [...(results[view.name] ?? []), { n: have, load, warm, build }];
          progress(
            `  ${have.toLocaleString('en')}: ${view.name}: p99 ${ms(load.p99)}, ${warm.toFixed(1)} RCU/view`,
          );
        }
      } catch (e) {
        // the largest size that finished is still reported (the row says where and why the next one stopped)
        failure = `at ${n.toLocaleString('en')} packages (${have.toLocaleString('en')} seeded): ${(e as Error).message.split('\n')[0]}`;
        progress(`growth stopped ${failure}`);
        break;
      }
    }
    for (const view of VIEWS) {
      const [a, b] = results[view.name] ?? [];
      if (a && !b)
        rows.push(
          info(
            SECTION,
            `${view.name}: ${a.n.toLocaleString('en')} packages only, ${CLIENTS} clients`,
            `p99 ${ms(a.load.p99)} · ${a.warm.toFixed(1)} RCU/view`,
          ),
        );
      if (!a || !b) continue;
      const flat = b.load.p99 <= Math.max(a.load.p99 * 2, a.load.p99 + 50) && b.warm <= a.warm * 1.5 + 1;
      rows.push({
        section: SECTION,
        name: `${view.name}: ${a.n.toLocaleString('en')} → ${b.n.toLocaleString('en')} packages, ${CLIENTS} clients`,
        value: `p99 ${ms(a.load.p99)} → ${ms(b.load.p99)} · ${a.warm.toFixed(1)} → ${b.warm.toFixed(1)} RCU/view${
          b.load.failed ? ` · ${b.load.failed} failed` : ''
        }`,
        target: 'flat',
        verdict: verdict(flat && b.load.failed === 0),
      });
    }
    const first = results[VIEWS[1]!.name];
    if (first?.[0] && first[1])
      rows.push(
        info(
          SECTION,
          'list index build (first view of a cold Lambda, or after a deletion)',
          `${first[0].build.toFixed(0)} → ${first[1].build.toFixed(0)} RCU (${first[0].n.toLocaleString('en')} → ${first[1].n.toLocaleString('en')} packages)`,
        ),
      );
    for (const sd of seeded)
      rows.push(
        info(
          SECTION,
          `seeding up to ${sd.n.toLocaleString('en')} packages (BatchWrite, ${WRITERS} writers)`,
          `${sd.seconds.toFixed(0)} s, ${sd.rate.toFixed(0)} packages/s`,
        ),
      );
    if (short) rows.push(info(SECTION, 'the large size not reached', short));
    if (failure) rows.push(info(SECTION, 'not measured beyond the largest size above', failure));
  } finally {
    await stack.stop();
    forget();
  }
  return rows;
}
