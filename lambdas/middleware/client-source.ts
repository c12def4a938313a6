import { createHash, timingSafeEqual } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import {
  clientSourceOf,
  ORIGIN_VERIFY_HEADER,
  VIEWER_ADDRESS_HEADER,
} from '../../shared/domain/client-source';

let secret: Promise<string | null> | undefined;
/**
 * The value CloudFront puts in the origin-verify header: ORIGIN_VERIFY_SECRET (local stack, tests) or the
 * Secrets Manager secret named by ORIGIN_VERIFY_SECRET_ARN (AWS), read once per instance; null when this
 * function was given neither (then no request counts as having passed CloudFront).
 */
function originSecret(): Promise<string | null> {
  secret ??= (async () => {
    const direct = process.env.ORIGIN_VERIFY_SECRET;
    if (direct) return direct;
    const arn = process.env.ORIGIN_VERIFY_SECRET_ARN;
    if (!arn) return null;
    const r = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
    if (!r.SecretString) throw new Error('origin-verify secret is empty');
    return r.SecretString;
  })().catch((e: unknown) => {
    secret = undefined; // a later request tries again
    throw e;
  });
  return secret;
}

function header(event: APIGatewayProxyEvent, name: string): string | undefined {
  const lower = name.toLowerCase();
  const hit = Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === lower);
  return hit?.[1] ?? undefined;
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Whether the request carries CloudFront's origin-verify secret (it passed CloudFront). False when the
 * header is absent or wrong, and when this function was given no secret.
 */
export async function presentsOriginSecret(event: APIGatewayProxyEvent): Promise<boolean> {
  const presented = header(event, ORIGIN_VERIFY_HEADER);
  // the secret is only looked up when a request claims to come through CloudFront
  if (presented === undefined) return false;
  const expected = await originSecret();
  return expected !== null && timingSafeEqual(digest(presented), digest(expected));
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
