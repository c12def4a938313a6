import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BucketName, TableName } from '../../shared/api/routes';
import { bucketEnv, tableEnv } from '../../shared/api/runtime';

/**
 * The local stack's AWS seam, in one place (decision 237): the emulators' names, the
 * credentials and region the AWS SDK sends them, the physical table and bucket names, the client settings,
 * and the environment a handler, a script or a test gets to reach them. The stack (stack.ts), the ops
 * scripts (scripts/) and the tests (test/support, test/bench) read it; none repeats a key, a name or a
 * client setting. Another S3 emulator is a change here (S3_EMULATOR) and in its start function
 * (emulators.ts startS3).
 */

export const LOCAL_REGION = 'us-east-1';

/** The S3 emulator: its process name in emulators.json, the key pair it accepts, its folder in the data dir. */
export const S3_EMULATOR = {
  name: 's3rver',
  /** s3rver accepts only its own key pair; the other emulators take any, so every client sends this one */
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  dataFolder: 's3',
} as const;
export const DYNAMO_EMULATOR = { name: 'DynamoDB Local', dataFolder: 'dynamodb' } as const;
export const SES_EMULATOR = { name: 'aws-ses-v2-local' } as const;

export const LOCAL_CREDENTIALS = S3_EMULATOR.credentials;

const NAME_PREFIX = 'frp-local-';
/** A table's physical name in the local stack. */
export const localTable = (name: TableName): string => `${NAME_PREFIX}${name}`;
/** A bucket's physical name in the local stack. */
export const localBucket = (name: BucketName): string => `${NAME_PREFIX}${name}`;

/** The emulator's S3 data folder under a stack's data dir (the multipart shim reads it). */
export const s3DataDir = (dataDir: string): string => resolve(dataDir, S3_EMULATOR.dataFolder);

export interface LocalEndpoints {
  dynamo: string;
  s3?: string;
  ses?: string;
}

/** Client settings for DynamoDB Local. */
export const localDynamoConfig = (endpoint: string, maxAttempts?: number) => ({
  endpoint,
  region: LOCAL_REGION,
  credentials: LOCAL_CREDENTIALS,
  ...(maxAttempts ? { maxAttempts } : {}),
});

/** Client settings for the S3 emulator: path-style addressing, checksums only where S3 requires them. */
export const localS3Config = (endpoint: string, maxAttempts?: number) => ({
  ...localDynamoConfig(endpoint, maxAttempts),
  forcePathStyle: true,
  requestChecksumCalculation: 'WHEN_REQUIRED' as const,
  responseChecksumValidation: 'WHEN_REQUIRED' as const,
});

/** The AWS part of a handler's environment on the local stack: region, key pair, endpoints. */
export function localAwsEnv(endpoints: LocalEndpoints, dataDir?: string): Record<string, string> {
  return {
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamo,
    ...(endpoints.s3 ? { AWS_ENDPOINT_URL_S3: endpoints.s3, S3_LOCAL_COMPAT: 'true' } : {}),
    ...(endpoints.ses ? { AWS_ENDPOINT_URL_SESV2: endpoints.ses } : {}),
    // the emulator's folder: the local server answers the multipart calls s3rver lacks from it (s3-multipart-shim.ts)
    ...(dataDir ? { LOCAL_S3RVER_DIR: s3DataDir(dataDir) } : {}),
  };
}

/** TABLE_* and BUCKET_* of a handler's environment, with the local physical names. */
export function localNameEnv(
  tables: readonly TableName[],
  buckets: readonly BucketName[],
): Record<string, string> {
  return {
    ...Object.fromEntries(tables.map((t) => [tableEnv(t), localTable(t)])),
    ...Object.fromEntries(buckets.map((b) => [bucketEnv(b), localBucket(b)])),
  };
}

const url = (port: number) => `http://127.0.0.1:${port}`;
export const localEndpointAt = url;

/** Where a running local stack's emulators listen, from the emulators.json the stack writes in its data dir. */
export function readLocalEndpoints(dataDir: string): Required<LocalEndpoints> {
  const file = resolve(dataDir, 'emulators.json');
  if (!existsSync(file))
    throw new Error(
      `No local stack data in ${dataDir} (emulators.json is missing): start the local stack first (npm start)`,
    );
  const emulators = JSON.parse(readFileSync(file, 'utf8')) as { name: string; port: number }[];
  const port = (name: string) => {
    const e = emulators.find((x) => x.name === name);
    if (!e) throw new Error(`emulators.json in ${dataDir} names no ${name}`);
    return e.port;
  };
  return {
    dynamo: url(port(DYNAMO_EMULATOR.name)),
    s3: url(port(S3_EMULATOR.name)),
    ses: url(port(SES_EMULATOR.name)),
  };
}
