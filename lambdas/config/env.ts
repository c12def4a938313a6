import type { BucketName, TableName } from '../../shared/api/routes';
import { bucketEnv, tableEnv } from '../../shared/api/runtime';

/** A required environment variable; a missing one fails loudly at module load, not mid-request. */
export function requireEnv(name: string): string {
  const v = process.env[name];
  if (v === undefined || v === '') throw new Error(`Missing required environment variable ${name}`);
  return v;
}

export function optionalEnv(name: string, fallback: string): string {
  const v = process.env[name];
  return v === undefined || v === '' ? fallback : v;
}

export function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new Error(`Environment variable ${name} must be an integer, got '${raw}'`);
  return n;
}

export const tableName = (t: TableName): string => requireEnv(tableEnv(t));
export const bucketName = (b: BucketName): string => requireEnv(bucketEnv(b));

/** Base URL of the web app, used for links in mails. */
export const appUrl = (): string => optionalEnv('APP_URL', 'http://localhost:3000');
