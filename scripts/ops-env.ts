import { resolve } from 'node:path';
import type { BucketName, TableName } from '../shared/api/routes';

/**
 * What the operator scripts (`ops:*`, `admin:create`) share: their failure exit, and the environment the
 * local stack gives its handlers (infra/local/stack.ts) when run with `--local`.
 */

/**
 * A failure of script `name`: the reason on stderr, exit code 2. Declare the result with its type
 * (`const fail: (message: string) => never = …`) so TypeScript knows the code after a call is not reached.
 */
export const opsFail =
  (name: string) =>
  (message: string): never => {
    console.error(`${name}: ${message}`);
    process.exit(2);
  };

/** The options every operator script that runs locally or deployed takes (`parseArgs`). */
export const TARGET_OPTIONS = {
  local: { type: 'boolean', default: false },
  'data-dir': { type: 'string' },
  region: { type: 'string' },
} as const;

/** The data folder of the local stack: `--data-dir`, else DATA_DIR, else `.data`. */
export const localDataDir = (flag: string | undefined): string =>
  resolve(flag ?? process.env.DATA_DIR ?? '.data');

/**
 * Points the AWS SDK at the local stack running on `dataDir` (endpoints from its emulators.json: DynamoDB,
 * and S3 when `withS3`) and names the tables and buckets as the local stack does. Imported late: a
 * deployed run does not load the local stack's code.
 */
export async function targetLocalStack(
  dataDir: string,
  { withS3 }: { withS3: boolean },
  fail: (message: string) => never,
): Promise<void> {
  const { localAwsEnv, localNameEnv, readLocalEndpoints } = await import('../infra/local/local-aws');
  let endpoints: ReturnType<typeof readLocalEndpoints>;
  try {
    endpoints = readLocalEndpoints(dataDir);
  } catch (e) {
    fail((e as Error).message);
  }
  const { TABLES, BUCKETS } = await import('../infra/lib/definitions');
  Object.assign(process.env, {
    ...localAwsEnv({ dynamo: endpoints.dynamo, ...(withS3 ? { s3: endpoints.s3 } : {}) }, dataDir),
    ...localNameEnv(Object.keys(TABLES) as TableName[], Object.keys(BUCKETS) as BucketName[]),
  });
}
