import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ORIGIN_VERIFY_HEADER, ORIGIN_VERIFY_REQUIRED_ENV } from '../../shared/domain/client-source';
import { API_ERR } from '../../shared/messages';

/**
 * What the API stage's regional web ACL does in AWS (infra/lib/constructs/api-guard.ts, decision 308), for
 * the local gateway: when the stack runs as AWS does (ORIGIN_VERIFY_REQUIRED=true and the origin secret in
 * ORIGIN_VERIFY_SECRET), a request without CloudFront's origin-verify value is refused before routing and
 * before any handler is loaded or invoked, with the web ACL's own answer.
 */
export const STAGE_GUARD_ANSWER = {
  status: 403,
  body: JSON.stringify({ errorMessage: API_ERR.notThroughPortal }),
} as const;

/** Whether a request may reach the stage: always, unless the origin check is on and the value is wrong. */
export function passesStageGuard(
  headers: IncomingHttpHeaders,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (env[ORIGIN_VERIFY_REQUIRED_ENV] !== 'true') return true;
  const expected = env.ORIGIN_VERIFY_SECRET;
  const presented = headers[ORIGIN_VERIFY_HEADER.toLowerCase()];
  // fails closed, as the handlers' own check does: required without a configured value refuses all
  if (!expected || typeof presented !== 'string') return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The local-only path where a test reads how often each route's handler was invoked. */
export const INVOCATIONS_PATH = '/_local/invocations';

/**
 * Handler invocations per route id, as Lambda's Invocations metric counts them. Served at
 * INVOCATIONS_PATH only when LOCAL_GATEWAY_STATS=true (tests), never under the API's stage path.
 */
export class InvocationCounter {
  private readonly counts = new Map<string, number>();

  count(routeId: string): void {
    this.counts.set(routeId, (this.counts.get(routeId) ?? 0) + 1);
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }

  get total(): number {
    let n = 0;
    for (const v of this.counts.values()) n += v;
    return n;
  }
}
