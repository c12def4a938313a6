import { Logger } from '@aws-lambda-powertools/logger';
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { routeMetrics } from '../../shared/api/metrics';
import { metrics } from './metrics';

/**
 * Structured logs (Powertools for AWS Lambda's Logger: one JSON object a line, as CloudWatch Logs
 * Insights reads them). One logger per Lambda: a module instance serves one route (or one worker), and
 * the first route or worker that asks names it, so `service` is the route id. The local server runs every
 * route in one process; there the `route` key of each line names its route.
 *
 * Never log a password, token, secret or request body: name what happened and the ids it concerns.
 */
let instance: Logger | undefined;
let instanceName: string | undefined;

/**
 * Where the local stack says which function is running (it runs every route and worker in one process,
 * each invocation inside its own async scope). Unset in AWS, where one process is one function.
 */
let currentFunction: (() => string | undefined) | undefined;
const perFunction = new Map<string, Logger>();

/** The local stack names the function of each invocation, so every log line says who wrote it. */
export function nameFunctionsBy(source: (() => string | undefined) | undefined): void {
  currentFunction = source;
}

/** This Lambda's logger, named after the route or worker id given first (`loggerFor`). */
export function logger(): Logger {
  if (!instance) named('firmware-release-portal');
  const name = currentFunction?.();
  if (!instance || !name || name === instanceName) return instance!;
  let child = perFunction.get(name);
  if (!child) {
    child = instance.createChild({ serviceName: name });
    perFunction.set(name, child);
  }
  return child;
}

/** This Lambda's logger, named `serviceName` if nothing named it before (route() and the workers call it). */
export function loggerFor(serviceName: string): Logger {
  if (!instance) named(serviceName);
  return currentFunction ? logger() : instance!;
}

function named(serviceName: string): void {
  instance = new Logger({ serviceName });
  instanceName = serviceName;
}

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
