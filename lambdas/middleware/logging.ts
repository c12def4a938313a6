import type { Logger } from '@aws-lambda-powertools/logger';
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { routeMetrics } from '../../shared/api/metrics';
import { logger, loggerFor } from '../observability/logger';
import { metrics } from '../observability/metrics';

/** ok (2xx/3xx), refused (4xx: the caller's input or rights), failed (5xx: ours or a dependency's). */
export function outcomeOf(statusCode: number | undefined): 'ok' | 'refused' | 'failed' {
  if (statusCode === undefined || statusCode >= 500) return 'failed';
  return statusCode >= 400 ? 'refused' : 'ok';
}

/**
 * The ids a request concerns, from its path: the package of `/packages/{id}…` (and the delivery routes),
 * the resource of `/resources/{id}…`, the upload of `/resources/uploads/{uploadId}…`.
 */
export function subjectKeys(event: Pick<APIGatewayProxyEvent, 'resource' | 'pathParameters'> | undefined): {
  packageId?: string;
  resourceId?: string;
  uploadId?: string;
} {
  const params = event?.pathParameters ?? {};
  const resource = event?.resource ?? '';
  const out: { packageId?: string; resourceId?: string; uploadId?: string } = {};
  if (params.id && /\/packages\/\{id\}/.test(resource)) out.packageId = params.id;
  if (params.id && resource.startsWith('/resources/{id}')) out.resourceId = params.id;
  if (params.uploadId) out.uploadId = params.uploadId;
  return out;
}

/**
 * First in the route's middy chain: every line logged while the request runs carries its request id and
 * route id, the package (or resource, upload) its path names, and once `authorize` let it in the user id;
 * when the answer is made (after the error mapper on a failure), one line says how the request ended:
 * status code, outcome and duration. A successful answer that stands for a business event (an approval, a
 * signature, a delivery) counts it as a CloudWatch metric (decision 312).
 */
export function logging(routeId: string): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  loggerFor(routeId);
  // asked at each use: in the local stack's one process the logger is the running function's
  const log = {
    info: (message: string, extra: Record<string, unknown>) => logger().info(message, extra),
    resetKeys: () => logger().resetKeys(),
    addContext: (c: Parameters<Logger['addContext']>[0]) => logger().addContext(c),
    appendKeys: (k: Parameters<Logger['appendKeys']>[0]) => logger().appendKeys(k),
  };
  const started = new WeakMap<object, number>();
  const end = async (request: middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult>) => {
    const statusCode = request.response?.statusCode;
    const userId = (request.event as { user?: { id?: string } }).user?.id;
    const begin = started.get(request);
    log.info('request', {
      requestId: request.context?.awsRequestId,
      route: routeId,
      method: request.event?.httpMethod,
      ...(userId ? { userId } : {}),
      statusCode,
      outcome: outcomeOf(statusCode),
      ...(begin === undefined ? {} : { durationMs: Math.round(performance.now() - begin) }),
    });
    for (const name of routeMetrics(routeId, statusCode)) metrics().count(name);
    log.resetKeys();
  };
  return {
    before: async (request) => {
      started.set(request, performance.now());
      log.resetKeys();
      if (request.context?.awsRequestId) log.addContext(request.context);
      log.appendKeys({
        requestId: request.context?.awsRequestId,
        route: routeId,
        ...subjectKeys(request.event),
      });
    },
    after: end,
    onError: end,
  };
}

/** Adds the signed-in user's id to the lines of the rest of the request (`authorize` calls it). */
export function logUser(userId: string): void {
  logger().appendKeys({ userId });
}
