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

/**
 * Where passkeys are valid (decision 322): the relying party is the host of the portal's origin (APP_URL:
 * the stage's domain in AWS, http://localhost:<port> locally), and PASSKEYS_REQUIRED says whether the
 * stage makes the deciding roles and admins sign with a passkey. Anything but 'true' or 'false' (or unset:
 * false) fails loudly: a typo must not switch the requirement off.
 */
export function webauthnConfig(): { rpId: string; rpName: string; origins: string[]; required: boolean } {
  const origin = new URL(appUrl()).origin;
  const required = optionalEnv('PASSKEYS_REQUIRED', 'false');
  if (required !== 'true' && required !== 'false')
    throw new Error(`Environment variable PASSKEYS_REQUIRED must be true or false, got '${required}'`);
  return {
    rpId: new URL(origin).hostname,
    rpName: optionalEnv('PASSKEY_RP_NAME', 'Firmware Release Portal'),
    origins: [origin],
    required: required === 'true',
  };
}
