import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  localBucket,
  localDynamoConfig,
  localS3Config,
  localTable,
  readLocalEndpoints,
} from '../infra/local/local-aws';
import { tableEnv } from '../shared/api/runtime';
import {
  checkCompleteness,
  completenessInputOf,
  type Disagreement,
  type StoredItems,
} from '../shared/domain/audit-completeness';
import {
  AUDIT_COPY_PREFIX,
  type AuditCopyReport,
  auditObjectBody,
  auditObjectKey,
  compareAuditCopy,
} from '../shared/domain/audit-copy';
import { SEED_USERS } from '../shared/domain/seed-users';

/**
 * `npm run audit:verify -- --local [--data-dir .data]` or `npm run audit:verify -- [--stack <name>]
 * [--region <region>]`: checks that the audit table and its write-once copy in the audit bucket agree,
 * that every hash chain is unbroken (docs/infra.md, "Audit trail copy"), and that the stored state and
 * the record agree: every decision, grant and deletion has exactly one event and no event claims what the
 * state lacks (shared/domain/audit-completeness.ts, decision 290). Against the local stack it reads the
 * emulators' ports from the data folder (DATA_DIR or .data, as `npm start` does); against AWS it reads the
 * table and bucket names from the stack's outputs (or TABLE_<NAME> where an output is missing), with
 * credentials from the default chain. It only reads (but for `--copy-missing`).
 * Exit 0 when everything agrees, 1 on any disagreement, 2 when it cannot run (bad arguments, no stack).
 */

const USAGE =
  'Usage: npm run audit:verify -- --local [--data-dir <dir>] [--copy-missing]\n' +
  '       npm run audit:verify -- [--stack FirmwareReleasePortal-dev] [--region <region>] [--copy-missing]\n' +
  '  --copy-missing  first writes events the bucket lacks (e.g. written before the copy existed); never overwrites';

/** The tables whose state the record must agree with, besides the audit table itself. */
const STATE_TABLES = ['packages', 'users', 'resources', 'dcc'] as const;
type StateTable = (typeof STATE_TABLES)[number];

interface Target {
  describe: string;
  table: string;
  /** the state tables' physical names */
  tables: Record<StateTable, string>;
  /** accounts a local stack seeds without an event (none in AWS) */
  seeded: { email: string; role: string }[];
  bucket: string;
  dynamo: DynamoDBClient;
  s3: S3Client;
}

class UsageError extends Error {}

function localTarget(dataDir: string): Target {
  let endpoints: ReturnType<typeof readLocalEndpoints>;
  try {
    endpoints = readLocalEndpoints(dataDir);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return {
    describe: `local stack (data folder ${dataDir})`,
    table: localTable('audit'),
    tables: Object.fromEntries(STATE_TABLES.map((t) => [t, localTable(t)])) as Record<StateTable, string>,
    seeded: SEED_USERS.map((u) => ({ email: u.email, role: u.role })),
    bucket: localBucket('audit'),
    dynamo: new DynamoDBClient(localDynamoConfig(endpoints.dynamo, 2)),
    s3: new S3Client(localS3Config(endpoints.s3, 2)),
  };
}

async function deployedTarget(stackName: string, region: string | undefined): Promise<Target> {
  const cfn = new CloudFormationClient({ region });
  const r = await cfn.send(new DescribeStacksCommand({ StackName: stackName }));
  const outputs = Object.fromEntries(
    (r.Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey ?? '', o.OutputValue ?? '']),
  );
  const table = outputs.AuditTableName;
  const bucket = outputs.AuditBucketName;
  if (!table || !bucket)
    throw new UsageError(
      `Stack ${stackName} has no AuditTableName/AuditBucketName outputs: deploy the current version`,
    );
  // the stack names the users table (admin:create); the others from TABLE_<NAME>, as the workers have them
  const outputOf: Partial<Record<StateTable, string>> = { users: outputs.UsersTableName };
  const tables = Object.fromEntries(
    STATE_TABLES.map((t) => [t, outputOf[t] || process.env[tableEnv(t)] || '']),
  ) as Record<StateTable, string>;
  const unnamed = STATE_TABLES.filter((t) => !tables[t]);
  if (unnamed.length > 0)
    throw new UsageError(
      `Set ${unnamed.map((t) => tableEnv(t)).join(', ')} to the table name(s) of stack ${stackName}: the state is checked against the record`,
    );
  return {
    describe: `stack ${stackName}`,
    table,
    tables,
    seeded: [],
    bucket,
    dynamo: new DynamoDBClient({ region }),
    s3: new S3Client({ region }),
  };
}

async function readTable(t: Target, table = t.table): Promise<Record<string, unknown>[]> {
  const doc = DynamoDBDocumentClient.from(t.dynamo);
  const items: Record<string, unknown>[] = [];
  let start: ScanCommandInput['ExclusiveStartKey'];
  do {
    const r = await doc.send(
      new ScanCommand({ TableName: table, ExclusiveStartKey: start, ConsistentRead: true }),
    );
    items.push(...((r.Items ?? []) as Record<string, unknown>[]));
    start = r.LastEvaluatedKey;
  } while (start);
  return items;
}

async function readBucket(t: Target): Promise<Map<string, string>> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const r = await t.s3.send(
      new ListObjectsV2Command({ Bucket: t.bucket, Prefix: AUDIT_COPY_PREFIX, ContinuationToken: token }),
    );
    keys.push(...(r.Contents ?? []).map((o) => o.Key ?? ''));
    token = r.IsTruncated ? r.NextContinuationToken : undefined;
  } while (token);
  const bodies = new Map<string, string>();
  // a few reads at a time: enough to be quick, few enough for s3rver and for a throttled account
  for (let i = 0; i < keys.length; i += 8) {
    await Promise.all(
      keys.slice(i, i + 8).map(async (Key) => {
        const o = await t.s3.send(new GetObjectCommand({ Bucket: t.bucket, Key }));
        bodies.set(Key, (await o.Body?.transformToString('utf8')) ?? '');
      }),
    );
  }
  return bodies;
}

/** The report as people read it: one line per problem, naming the event. */
export function formatAuditReport(where: string, r: AuditCopyReport): string {
  const lines = [
    `Audit trail of the ${where}`,
    `  ${r.subjects} subjects, ${r.tableEvents} events in the table, ${r.bucketObjects} objects in the bucket`,
  ];
  if (r.problems.length === 0) {
    lines.push('OK: the table and the bucket agree, and every hash chain is unbroken');
  } else {
    for (const p of r.problems)
      lines.push(`FAIL ${p.subject}${p.seq === null ? '' : ` seq ${p.seq}`}: ${p.message}`);
    lines.push(`${r.problems.length} problem${r.problems.length === 1 ? '' : 's'} found`);
  }
  return `${lines.join('\n')}\n`;
}

/** The state tables' items (the audit table's are read with the bucket). */
async function readState(t: Target): Promise<Omit<StoredItems, 'audit'>> {
  const read = await Promise.all(STATE_TABLES.map((name) => readTable(t, t.tables[name])));
  const [packages, users, resources, dcc] = read as [
    Record<string, unknown>[],
    Record<string, unknown>[],
    Record<string, unknown>[],
    Record<string, unknown>[],
  ];
  return { packages, users, resources, dcc };
}

/** The completeness part of the report: one line per disagreement, naming the subject. */
export function formatCompletenessReport(where: string, input: StoredItems, found: Disagreement[]): string {
  const count = (items: readonly Record<string, unknown>[], kind: string) =>
    items.filter((i) => i.kind === kind).length;
  const lines = [
    `State and record of the ${where}`,
    `  ${count(input.packages, 'PACKAGE')} packages (${count(input.packages, 'TOMBSTONE')} deleted), ${count(input.users, 'USER')} users, ${count(input.users, 'ACCESS_TOKEN')} access tokens, ${count(input.resources, 'RESOURCE')} resources, ${count(input.dcc, 'DCC')} DCCs`,
  ];
  if (found.length === 0) {
    lines.push(
      'OK: the state and the record agree: every decision, grant and deletion has exactly one event',
    );
  } else {
    for (const d of found) lines.push(`FAIL ${d.subject}: ${d.kind}: ${d.message}`);
    lines.push(
      `${found.length} disagreement${found.length === 1 ? '' : 's'} between the state and the record`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Runs the command with `args` (without node and script), writing to `out`; returns the exit code. */
export async function runAuditVerify(args: string[], out: (s: string) => void): Promise<number> {
  let local = false;
  let copyMissing = false;
  let dataDir = process.env.DATA_DIR ?? '.data';
  let stack = 'FirmwareReleasePortal-dev';
  let region: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--local') local = true;
    else if (a === '--copy-missing') copyMissing = true;
    else if (a === '--data-dir' || a === '--stack' || a === '--region') {
      const v = args[++i];
      if (!v) {
        out(`${a} needs a value\n${USAGE}\n`);
        return 2;
      }
      if (a === '--data-dir') dataDir = v;
      else if (a === '--stack') stack = v;
      else region = v;
    } else if (a === '--help' || a === '-h') {
      out(`${USAGE}\n`);
      return 0;
    } else {
      out(`Unexpected argument ${a}\n${USAGE}\n`);
      return 2;
    }
  }
  let target: Target;
  try {
    target = local ? localTarget(resolve(dataDir)) : await deployedTarget(stack, region);
  } catch (e) {
    out(`${(e as Error).message}\n`);
    return 2;
  }
  try {
    const [items, objects, state] = await Promise.all([
      readTable(target),
      readBucket(target),
      readState(target),
    ]);
    let report = compareAuditCopy(items, objects);
    const missing = report.problems.flatMap((p) => (p.missing ? [p.missing] : []));
    if (copyMissing && missing.length > 0) {
      for (const e of missing) {
        const body = auditObjectBody(e);
        const Key = auditObjectKey(e.subject, Number(e.seq));
        // the same write as the auditCopy worker: conditional, so an object that exists is never replaced
        await target.s3
          .send(
            new PutObjectCommand({
              Bucket: target.bucket,
              Key,
              Body: body,
              ContentType: 'application/json',
              ContentMD5: createHash('md5').update(body).digest('base64'),
              IfNoneMatch: '*',
            }),
          )
          .catch((err: { $metadata?: { httpStatusCode?: number } }) => {
            if (err.$metadata?.httpStatusCode !== 412) throw err;
          });
        objects.set(Key, body);
      }
      out(`Copied ${missing.length} event${missing.length === 1 ? '' : 's'} the bucket lacked\n`);
      report = compareAuditCopy(items, objects);
    }
    out(formatAuditReport(target.describe, report));
    const stored: StoredItems = { ...state, audit: items };
    const found = checkCompleteness(completenessInputOf(stored, new Date(), target.seeded));
    out(formatCompletenessReport(target.describe, stored, found));
    return report.problems.length === 0 && found.length === 0 ? 0 : 1;
  } catch (e) {
    out(
      `Could not read the audit trail of the ${target.describe}: ${(e as Error).name}: ${(e as Error).message}\n`,
    );
    return 2;
  } finally {
    target.dynamo.destroy();
    target.s3.destroy();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const code = await runAuditVerify(process.argv.slice(2), (s) => process.stdout.write(s));
  process.exit(code);
}
