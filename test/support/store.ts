import { createHash } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { localBucket, localDynamoConfig, localS3Config, localTable } from '../../infra/local/local-aws';
import { auditObjectKey } from '../../shared/domain/audit-copy';

export const TABLE_NAMES = ['users', 'resources', 'packages', 'dcc', 'audit'] as const;
export const BUCKET_NAMES = ['resources', 'artefacts', 'audit'] as const;

/** A DynamoDB document client on a local stack's DynamoDB Local. */
export function dynamoAt(endpoint: string): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient(localDynamoConfig(endpoint, 1)), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

/** An S3 client on a local stack's s3rver. */
export function s3At(endpoint: string): S3Client {
  return new S3Client(localS3Config(endpoint, 1));
}

export const tableOf = (name: (typeof TABLE_NAMES)[number]) => localTable(name);

/** Every item of a local table; login throttle counters are left out (failed sign-ins keep them, by design). */
export async function scanAll(
  ddb: DynamoDBDocumentClient,
  table: string,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: ScanCommandInput['ExclusiveStartKey'];
  do {
    const r = await ddb.send(
      new ScanCommand({ TableName: table, ExclusiveStartKey: start, ConsistentRead: true }),
    );
    items.push(...((r.Items ?? []) as Record<string, unknown>[]).filter((i) => i.kind !== 'THROTTLE'));
    start = r.LastEvaluatedKey;
  } while (start);
  return items;
}

async function objectKeys(s3: S3Client, bucket: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const r = await s3.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    keys.push(...(r.Contents ?? []).map((o) => o.Key ?? ''));
    token = r.IsTruncated ? r.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

const canonical = (v: unknown): string =>
  JSON.stringify(v, (_, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(
          Object.entries(x as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : x,
  );

/**
 * Waits until the audit bucket holds the copy of every event in the audit table (the copy is written
 * asynchronously from the table's stream), so a snapshot never catches the copy of an earlier action half
 * way. Throws if the copy does not catch up within `timeoutMs`: a copy that falls behind is a failure too.
 */
export async function auditCopySettled(
  ddb: DynamoDBDocumentClient,
  s3: S3Client,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [items, keys] = await Promise.all([
      scanAll(ddb, tableOf('audit')),
      objectKeys(s3, localBucket('audit')),
    ]);
    const copied = new Set(keys);
    const missing = items
      .filter((i) => i.seq !== 0)
      .map((i) => auditObjectKey(String(i.pk), Number(i.seq)))
      .filter((k) => !copied.has(k));
    if (missing.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(
        `the audit copy did not catch up: ${missing.length} events missing, e.g. ${missing[0]}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * What the stack stores, as item counts and one digest per table and bucket: equal snapshots mean nothing
 * was written, changed or deleted in between (login throttle counters aside).
 */
export async function storeSnapshot(
  ddb: DynamoDBDocumentClient,
  s3?: S3Client,
): Promise<Record<string, string>> {
  if (s3) await auditCopySettled(ddb, s3);
  const out: Record<string, string> = {};
  await Promise.all([
    ...TABLE_NAMES.map(async (t) => {
      const items = (await scanAll(ddb, tableOf(t))).map(canonical).sort();
      out[`table ${t}`] =
        `${items.length} items, ${createHash('sha256').update(items.join('\n')).digest('hex').slice(0, 16)}`;
    }),
    ...(s3
      ? BUCKET_NAMES.map(async (b) => {
          const keys = (await objectKeys(s3, localBucket(b))).sort();
          out[`bucket ${b}`] =
            `${keys.length} objects, ${createHash('sha256').update(keys.join('\n')).digest('hex').slice(0, 16)}`;
        })
      : []),
  ]);
  return out;
}
