import {
  type AttributeDefinition,
  CreateTableCommand,
  DescribeTableCommand,
  type DescribeTableCommandOutput,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  ResourceNotFoundException,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import {
  CreateBucketCommand,
  HeadBucketCommand,
  PutBucketCorsCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { BucketName, TableName } from '../../shared/api/routes';
import { BUCKETS, TABLES, type TableDef } from '../lib/definitions';

function attributeDefinitions(def: TableDef): AttributeDefinition[] {
  const seen = new Map<string, 'S' | 'N'>();
  for (const k of [
    def.partitionKey,
    def.sortKey,
    ...def.indexes.flatMap((i) => [i.partitionKey, i.sortKey]),
  ]) {
    if (k) seen.set(k.name, k.type);
  }
  return [...seen].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType }));
}

function gsi(i: TableDef['indexes'][number]): GlobalSecondaryIndex {
  return {
    IndexName: i.name,
    KeySchema: [
      { AttributeName: i.partitionKey.name, KeyType: 'HASH' },
      ...(i.sortKey ? [{ AttributeName: i.sortKey.name, KeyType: 'RANGE' as const }] : []),
    ],
    Projection: i.include
      ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...i.include] }
      : { ProjectionType: 'ALL' },
  };
}

/** Creates each table that is missing and adds indexes a newer definition gained; restart-safe. */
export async function provisionTables(
  client: DynamoDBClient,
  names: Record<TableName, string>,
): Promise<void> {
  for (const [key, def] of Object.entries(TABLES) as [TableName, TableDef][]) {
    const TableName = names[key];
    let existing: DescribeTableCommandOutput | undefined;
    try {
      existing = await client.send(new DescribeTableCommand({ TableName }));
    } catch (e) {
      if (!(e instanceof ResourceNotFoundException)) throw e;
    }
    if (!existing) {
      await client.send(
        new CreateTableCommand({
          TableName,
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: attributeDefinitions(def),
          KeySchema: [
            { AttributeName: def.partitionKey.name, KeyType: 'HASH' },
            ...(def.sortKey ? [{ AttributeName: def.sortKey.name, KeyType: 'RANGE' as const }] : []),
          ],
          GlobalSecondaryIndexes: def.indexes.length ? def.indexes.map(gsi) : undefined,
          StreamSpecification: def.stream ? { StreamEnabled: true, StreamViewType: def.stream } : undefined,
        }),
      );
      continue;
    }
    // a data folder made before the table had a stream: turn it on (the stream workers read it)
    if (def.stream && !existing.Table?.StreamSpecification?.StreamEnabled) {
      await client.send(
        new UpdateTableCommand({
          TableName,
          StreamSpecification: { StreamEnabled: true, StreamViewType: def.stream },
        }),
      );
    }
    const have = new Set((existing.Table?.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName));
    for (const i of def.indexes.filter((x) => !have.has(x.name))) {
      await client.send(
        new UpdateTableCommand({
          TableName,
          AttributeDefinitions: attributeDefinitions(def),
          GlobalSecondaryIndexUpdates: [{ Create: gsi(i) }],
        }),
      );
    }
  }
}

/** Creates each bucket that is missing, with the CORS rules presigned browser uploads and downloads need. */
export async function provisionBuckets(
  client: S3Client,
  names: Record<BucketName, string>,
  appOrigin: string,
): Promise<void> {
  for (const key of Object.keys(BUCKETS) as BucketName[]) {
    const Bucket = names[key];
    try {
      await client.send(new HeadBucketCommand({ Bucket }));
    } catch {
      await client.send(new CreateBucketCommand({ Bucket }));
    }
    // as in AWS: the browser PUTs presigned uploads to resources and GETs large packages from artefacts
    const method = key === 'resources' ? 'PUT' : key === 'artefacts' ? 'GET' : null;
    if (method) {
      await client.send(
        new PutBucketCorsCommand({
          Bucket,
          CORSConfiguration: {
            CORSRules: [
              {
                // the app is reached as localhost or 127.0.0.1: both are the same local origin to a person
                AllowedOrigins: [appOrigin, appOrigin.replace('//localhost:', '//127.0.0.1:')],
                AllowedMethods: [method],
                AllowedHeaders: ['*'],
                // a multipart upload's client reads each part's ETag to complete it
                ...(method === 'PUT' ? { ExposeHeaders: ['ETag'] } : {}),
                MaxAgeSeconds: 3000,
              },
            ],
          },
        }),
      );
    }
  }
}
