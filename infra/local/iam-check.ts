import { AsyncLocalStorage } from 'node:async_hooks';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { s3 } from '../../lambdas/adapters/s3/client';
import { ses } from '../../lambdas/adapters/ses/ses-mailer';
import { type BucketName, type Route, type TableName, tablesWritten } from '../../shared/api/routes';
import { bucketEnv, tableEnv } from '../../shared/api/runtime';
import type { StreamWorker } from '../../shared/api/workers';
import { BUCKETS, TABLES } from '../lib/definitions';
import type { InitializeStack } from './sdk-middleware';

/**
 * The local stack's stand-in for IAM. In AWS each Lambda may touch only what its row of the route table
 * `uses` (infra/lib/constructs/grant-uses.ts turns `uses` into its role); locally every handler runs in one
 * process with every table, bucket and the mailbox at hand, so a row that forgets a table would work here
 * and fail in AWS. The local server runs each invocation inside `routeScope`, and these checks refuse,
 * like IAM, any call the route's role would not allow:
 *   - DynamoDB: tables in `uses.tables`; GET rows read only, and the tables the row does not change
 *     (`uses.writes`, tablesWritten) read only; the audit table is append-only (PutItem).
 *   - S3: buckets in `uses.buckets` with the operations listed (read, write, delete).
 *   - SES: only rows with `uses.mail`.
 * Stream workers (shared/api/workers.ts) run inside the same scope with their row's `uses`, as their
 * Lambda roles are built from it the same way (grantUses in infra/lib/constructs/grant-uses.ts).
 * Calls outside an invocation (seeding at start-up, the stream poller itself) are not checked.
 */
export type Grantee = Pick<Route, 'id' | 'uses'> & { method?: Route['method'] };
export const routeScope = new AsyncLocalStorage<Grantee>();

/** The grantee a stream worker runs as: its id (prefixed) and its row's `uses`. */
export const workerGrantee = (w: StreamWorker): Grantee => ({ id: `worker:${w.id}`, uses: w.uses });

export class LocalAccessDenied extends Error {
  override name = 'AccessDeniedException';
}

const READ_DDB = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand']);
const WRITE_DDB = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
]);

type S3Op = 'read' | 'write' | 'delete' | 'parts';
const S3_OPS: Record<string, S3Op> = {
  GetObjectCommand: 'read',
  HeadObjectCommand: 'read',
  ListObjectsV2Command: 'read',
  PutObjectCommand: 'write',
  CreateMultipartUploadCommand: 'write',
  UploadPartCommand: 'write',
  CompleteMultipartUploadCommand: 'write',
  AbortMultipartUploadCommand: 'write',
  ListPartsCommand: 'parts',
  DeleteObjectCommand: 'delete',
  DeleteObjectsCommand: 'delete',
};

function deny(route: Grantee, what: string): never {
  throw new LocalAccessDenied(
    `Local IAM check: route ${route.id} ${what}, which its row in shared/api/routes.ts does not allow (in AWS its role would refuse this)`,
  );
}

type Mode = 'read' | 'write' | 'put';

/** What one DynamoDB call does to which tables; null for a call no role is granted (Scan, DescribeTable...). */
function dynamoAccess(command: string, input: Record<string, unknown>): [string, Mode][] | null {
  if (command === 'TransactWriteItemsCommand') {
    const items = (input.TransactItems ?? []) as Record<string, { TableName?: string }>[];
    return items.flatMap((item) =>
      Object.entries(item).map(([kind, op]): [string, Mode] => [
        String(op?.TableName),
        kind === 'ConditionCheck' ? 'read' : kind === 'Put' ? 'put' : 'write',
      ]),
    );
  }
  if (command === 'TransactGetItemsCommand') {
    const items = (input.TransactItems ?? []) as { Get?: { TableName?: string } }[];
    return items.map((i) => [String(i.Get?.TableName), 'read']);
  }
  if (!READ_DDB.has(command) && !WRITE_DDB.has(command)) return null;
  const mode: Mode = READ_DDB.has(command) ? 'read' : command === 'PutItemCommand' ? 'put' : 'write';
  if (command === 'BatchGetItemCommand' || command === 'BatchWriteItemCommand')
    return Object.keys((input.RequestItems ?? {}) as object).map((t) => [t, mode]);
  return [[String(input.TableName), mode]];
}

export function checkDynamo(route: Grantee, command: string, input: Record<string, unknown>): void {
  const tables = new Map<string, TableName>(
    (Object.keys(TABLES) as TableName[]).map((t) => [process.env[tableEnv(t)] ?? `?${t}`, t]),
  );
  const access = dynamoAccess(command, input);
  if (!access) deny(route, `calls ${command}`);
  for (const [physical, mode] of access) {
    const table = tables.get(physical);
    if (!table || !route.uses.tables.includes(table)) deny(route, `calls ${command} on table ${physical}`);
    if (mode === 'read') continue;
    if (route.method === 'GET') deny(route, `writes (${command}) to table ${table} from a GET row`);
    if (!tablesWritten(route.uses).includes(table))
      deny(route, `writes (${command}) to table ${table}, which it may only read (uses.writes)`);
    if (table === 'audit' && mode !== 'put')
      deny(route, `changes or removes audit events (${command}); the audit table is append-only`);
  }
}

export function checkS3(route: Grantee, command: string, input: Record<string, unknown>): void {
  const op = S3_OPS[command];
  const buckets = new Map<string, BucketName>(
    (Object.keys(BUCKETS) as BucketName[]).map((b) => [process.env[bucketEnv(b)] ?? `?${b}`, b]),
  );
  const bucket = buckets.get(String(input.Bucket));
  const allowed = bucket ? (route.uses.buckets?.[bucket] ?? []) : [];
  if (!op || !allowed.includes(op)) deny(route, `calls ${command} on bucket ${String(input.Bucket)}`);
}

export function checkMail(route: Grantee, command: string): void {
  if (!route.uses.mail) deny(route, `sends mail (${command})`);
}

type Check = (route: Grantee, command: string, input: Record<string, unknown>) => void;

function guard(stack: InitializeStack, name: string, check: Check) {
  stack.add(
    (next, context) => async (args) => {
      const route = routeScope.getStore();
      if (route) check(route, context.commandName ?? '?', args.input as Record<string, unknown>);
      return next(args);
    },
    { step: 'initialize', name },
  );
}

let installed = false;
/** Adds the checks to the clients the handlers use (once per process). */
export function installLocalIamChecks(): void {
  if (installed) return;
  installed = true;
  guard(dynamo().middlewareStack as unknown as InitializeStack, 'localIamDynamo', checkDynamo);
  guard(s3().middlewareStack as unknown as InitializeStack, 'localIamS3', checkS3);
  guard(ses().middlewareStack as unknown as InitializeStack, 'localIamSes', (route, command) =>
    checkMail(route, command),
  );
}
