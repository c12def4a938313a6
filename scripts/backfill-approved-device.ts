/**
 * `npm run ops:backfill-approved-device -- [--local] [--data-dir D] [--region R] [--page-size N]
 *  [--progress-file F] [--restart]`
 *
 * One-off (decision 267, docs/operations.md): puts the packages approved before decision 246 on the sparse
 * `byApprovedDevice` index, so "Changes since the last approved package" finds them. An approved package
 * with a DCC copy gets the `approvedFor` (`<resourceType>#<deviceId>`) and `approvedAt` (its last approval
 * vote) that every whole-item save writes today (lambdas/adapters/dynamodb/package-items.ts).
 *
 * - Idempotent: only items without `approvedFor` are touched, each by a conditional update (still without
 *   the keys, still in the state it was read in); a second run changes nothing.
 * - Resumable: the scan's position is written to the progress file after each page; a run that stopped
 *   goes on from there (`--restart` starts over). The file is removed once the scan is complete.
 * - `--local`: the stack `npm start` runs on the data folder (.data, DATA_DIR or --data-dir); deployed: the
 *   AWS SDK's default credential chain, the table from TABLE_PACKAGES (the API functions' environment).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { tableEnv } from '../shared/api/runtime';
import { approvalTime, approvedForKey, type ComparedPackage } from '../shared/domain/package-changes';
import { localDataDir, opsFail, TARGET_OPTIONS, targetLocalStack } from './ops-env';

const fail: (message: string) => never = opsFail('ops:backfill-approved-device');

const { values } = parseArgs({
  options: {
    ...TARGET_OPTIONS,
    'page-size': { type: 'string', default: '100' },
    'progress-file': { type: 'string' },
    restart: { type: 'boolean', default: false },
  },
  strict: true,
});

const dataDir = localDataDir(values['data-dir']);
const pageSize = Number(values['page-size']);
if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) fail('--page-size must be 1 to 1000');

if (values.local) {
  await targetLocalStack(dataDir, { withS3: false }, fail);
} else {
  if (values.region) process.env.AWS_REGION = values.region;
  if (!process.env[tableEnv('packages')])
    fail(`set ${tableEnv('packages')} to the packages table's name (docs/operations.md)`);
}
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const table = process.env[tableEnv('packages')]!;
const progressFile = resolve(
  values['progress-file'] ??
    (values.local
      ? resolve(dataDir, 'backfill-approved-device.progress.json')
      : `backfill-approved-device-${table}.progress.json`),
);

const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
const { DynamoDBDocumentClient, ScanCommand, UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
const ddb = DynamoDBDocumentClient.from(
  new DynamoDBClient(values.local ? { endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB } : {}),
);

interface Progress {
  table: string;
  startKey?: Record<string, unknown>;
  scanned: number;
  indexed: number;
  skipped: number;
}

function readProgress(): Progress {
  const fresh: Progress = { table, scanned: 0, indexed: 0, skipped: 0 };
  if (values.restart || !existsSync(progressFile)) return fresh;
  const saved = JSON.parse(readFileSync(progressFile, 'utf8')) as Progress;
  if (saved.table !== table) fail(`${progressFile} is the progress of table ${saved.table}, not ${table}`);
  console.log(`resuming after ${saved.scanned} items (${progressFile})`);
  return saved;
}

function writeProgress(p: Progress): void {
  mkdirSync(dirname(progressFile), { recursive: true });
  const tmp = `${progressFile}.tmp`;
  writeFileSync(tmp, JSON.stringify(p));
  renameSync(tmp, progressFile);
}

/** The index keys of one package item, or why it has none (not approved, no DCC copy, no approval time). */
function keysOf(item: Record<string, unknown>): { approvedFor: string; approvedAt: string } | string {
  const p = item as unknown as Pick<ComparedPackage, 'status' | 'approvers' | 'resourceType' | 'dcc'>;
  const approvedFor = approvedForKey(p);
  if (!approvedFor) return 'no DCC copy';
  const approvedAt = approvalTime({ status: p.status, approvers: p.approvers ?? {} });
  if (!approvedAt) return 'not approved, or no approval time recorded';
  return { approvedFor, approvedAt };
}

const progress = readProgress();
const names = {
  '#pk': 'pk',
  '#sk': 'sk',
  '#id': 'id',
  '#k': 'kind',
  '#s': 'status',
  '#ap': 'approvers',
  '#rt': 'resourceType',
  '#af': 'approvedFor',
  '#d': 'dcc',
};
do {
  const page = await ddb.send(
    new ScanCommand({
      TableName: table,
      // packages that are not on the index yet; whether they are approved is decided below (one rule)
      FilterExpression: '#k = :pkg AND attribute_not_exists(#af) AND attribute_exists(#d)',
      ProjectionExpression: '#pk, #sk, #id, #s, #ap, #rt, #d',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':pkg': 'PACKAGE' },
      Limit: pageSize,
      ...(progress.startKey ? { ExclusiveStartKey: progress.startKey } : {}),
    }),
  );
  for (const item of page.Items ?? []) {
    progress.scanned += 1;
    const keys = keysOf(item);
    // not approved (a draft, in a round, rejected): not for the index
    if (typeof keys === 'string') continue;
    try {
      await ddb.send(
        new UpdateCommand({
          TableName: table,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: 'SET #af = :f, approvedAt = :a',
          // still without the keys and in the state read: a package saved meanwhile got its keys then
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#af) AND #s = :s',
          ExpressionAttributeNames: { '#af': 'approvedFor', '#s': 'status' },
          ExpressionAttributeValues: { ':f': keys.approvedFor, ':a': keys.approvedAt, ':s': item.status },
        }),
      );
      progress.indexed += 1;
      console.log(`indexed ${item.id} (${item.status}) as ${keys.approvedFor} at ${keys.approvedAt}`);
    } catch (e) {
      if ((e as Error).name !== 'ConditionalCheckFailedException') throw e;
      progress.skipped += 1;
      console.log(`skipped ${item.id}: it changed meanwhile (its next save indexes it)`);
    }
  }
  progress.startKey = page.LastEvaluatedKey;
  if (progress.startKey) writeProgress(progress);
} while (progress.startKey);

rmSync(progressFile, { force: true });
console.log(
  `ops:backfill-approved-device: done on ${table}: ${progress.indexed} approved packages indexed, ${progress.skipped} skipped (changed meanwhile), ${progress.scanned} unindexed packages with a DCC read`,
);
