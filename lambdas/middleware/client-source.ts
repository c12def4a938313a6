import { createHash, timingSafeEqual } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import {
  clientSourceOf,
  ORIGIN_VERIFY_HEADER,
  VIEWER_ADDRESS_HEADER,
} from '../../shared/domain/client-source';

interface Accepted {
  /** the values a request may present: the current one, and the previous one during a rotation */
  values: string[];
  readAt: number;
}
let accepted: Accepted | null | undefined;
let attemptAt = 0;
let loading: Promise<Accepted | null> | undefined;
let client: SecretsManagerClient | undefined;

/** how long a read is used before it is read again; a value matching none is read again sooner */
const cacheMs = () => Number(process.env.ORIGIN_VERIFY_CACHE_SECONDS ?? 300) * 1000;
/** the least time between two reads (a flood of wrong values reads rarely) */
const minReloadMs = () => Math.min(cacheMs(), 30_000);

/** One version of the secret by staging label; undefined when no version has that label. */
async function secretAt(arn: string, stage: 'AWSCURRENT' | 'AWSPREVIOUS'): Promise<string | undefined> {
  client ??= new SecretsManagerClient({});
  try {
    const r = await client.send(new GetSecretValueCommand({ SecretId: arn, VersionStage: stage }));
    if (!r.SecretString) throw new Error('origin-verify secret is empty');
    return r.SecretString;
  } catch (e) {
    if (stage === 'AWSPREVIOUS' && (e as Error).name === 'ResourceNotFoundException') return undefined;
    throw e;
  }
}

/**
 * The values CloudFront may put in the origin-verify header: ORIGIN_VERIFY_SECRET (local stack, tests), or
 * the versions AWSCURRENT and AWSPREVIOUS of the Secrets Manager secret named by ORIGIN_VERIFY_SECRET_ARN
 * (AWS); null when this function was given neither (then no request counts as having passed CloudFront).
 * A rotation (docs/operations.md) puts a new current value while CloudFront still sends the old one, now
 * AWSPREVIOUS, until the deploy hands it the new one: both are accepted, so nothing breaks in between.
 * Read again after ORIGIN_VERIFY_CACHE_SECONDS, or sooner (`force`) when a value matches neither.
 */
function acceptedValues(force: boolean): Promise<Accepted | null> {
  const now = Date.now();
  const stale =
    accepted !== null &&
    (accepted === undefined ||
      ((force || now - accepted.readAt >= cacheMs()) && now - attemptAt >= minReloadMs()));
  if (!stale) return Promise.resolve(accepted ?? null);
  loading ??= (async () => {
    // settle after `loading` is assigned, so the `finally` below clears this load and not an earlier one
    await Promise.resolve();
    attemptAt = Date.now();
    try {
      const direct = process.env.ORIGIN_VERIFY_SECRET;
      const arn = process.env.ORIGIN_VERIFY_SECRET_ARN;
      if (direct) accepted = { values: [direct], readAt: Date.now() };
      else if (!arn) accepted = null;
      else {
        const [current, previous] = await Promise.all([
          secretAt(arn, 'AWSCURRENT'),
          secretAt(arn, 'AWSPREVIOUS'),
        ]);
        accepted = {
          values: [current!, ...(previous && previous !== current ? [previous] : [])],
          readAt: Date.now(),
        };
      }
      return accepted;
    } catch (e) {
      // a later request tries again; until then the values read before stay in use
      if (accepted) return accepted;
      throw e;
    } finally {
      loading = undefined;
    }
  })();
  return loading;
}

/** Test hook: forget what was read (each test starts as a cold start). */
export function forgetOriginSecret(): void {
  accepted = undefined;
  attemptAt = 0;
  loading = undefined;
  client = undefined;
}

function header(event: APIGatewayProxyEvent, name: string): string | undefined {
  const lower = name.toLowerCase();
  const hit = Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === lower);
  return hit?.[1] ?? undefined;
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Whether the request carries CloudFront's origin-verify secret (it passed CloudFront): the current value,
 * or the previous one during a rotation. False when the header is absent or wrong, and when this function
 * was given no secret.
 */
export async function presentsOriginSecret(event: APIGatewayProxyEvent): Promise<boolean> {
  const presented = header(event, ORIGIN_VERIFY_HEADER);
  // the secret is only looked up when a request claims to come through CloudFront
  if (presented === undefined) return false;
  const matches = (a: Accepted | null) =>
    !!a?.values.some((v) => timingSafeEqual(digest(presented), digest(v)));
  // a value matching none may be one this function has not read yet (a rotation's new value)
  return matches(await acceptedValues(false)) || matches(await acceptedValues(true));
}

/** The source key of the request's client (shared/domain/client-source.ts); never X-Forwarded-For. */
export async function clientSource(event: APIGatewayProxyEvent): Promise<string> {
  const viewerAddress = header(event, VIEWER_ADDRESS_HEADER);
  const originVerified = viewerAddress !== undefined && (await presentsOriginSecret(event));
  return clientSourceOf({
    sourceIp: event.requestContext?.identity?.sourceIp,
    viewerAddress,
    originVerified,
  });
}
