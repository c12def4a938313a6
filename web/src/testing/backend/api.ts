import { buildRouter } from '@shared/api/route-matcher';
import { API_STAGE, handlerFile, type Route } from '@shared/api/routes';
import { BINARY_MEDIA_TYPES, GATEWAY_ANSWERS } from '@shared/api/runtime';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { HttpResponse, http } from 'msw';
import { MEMORY_STORAGE_URL, memoryBackend } from '../../../../lambdas/testing/memory-composition';

/**
 * The web component tests' backend behind the MSW seam (decision 230): each call to /dev/* is
 * matched against the route table as API Gateway matches it (infra/local/router.ts) and answered by the
 * route's real handler (lambdas/handlers/*), whose services run over the memory adapters
 * (lambdas/testing/memory-composition.ts). After each call the generations and upload verifications it
 * started run, as the workers would (unless a test holds them: `memoryBackend().autoRunJobs = false`).
 */

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

// loaded up front: a handler loaded on a test's first call could still be loading when the test ends
const HANDLERS = import.meta.glob<{ handler: Handler }>('../../../../lambdas/handlers/*.ts', { eager: true });
const match = buildRouter();

function handlerOf(route: Route): Handler {
  const module = HANDLERS[`../../../../lambdas/handlers/${handlerFile(route.id)}.ts`];
  if (!module) throw new Error(`no handler file for route ${route.id}`);
  return module.handler;
}

/** The API Gateway event of a request, as the local gateway builds it (infra/local/server.ts). */
async function eventOf(
  request: Request,
  url: URL,
  apiPath: string,
  route: Route,
  params: Record<string, string>,
): Promise<APIGatewayProxyEvent> {
  const body = Buffer.from(await request.arrayBuffer());
  const contentType = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const binary = BINARY_MEDIA_TYPES.includes(contentType);
  const headers = Object.fromEntries(request.headers);
  const query = Object.fromEntries(url.searchParams);
  const hasQuery = Object.keys(query).length > 0;
  return {
    resource: route.path,
    path: apiPath,
    httpMethod: request.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery
      ? Object.fromEntries([...url.searchParams.keys()].map((k) => [k, url.searchParams.getAll(k)]))
      : null,
    pathParameters: Object.keys(params).length ? params : null,
    stageVariables: null,
    body: body.length === 0 ? null : binary ? body.toString('base64') : body.toString('utf8'),
    isBase64Encoded: binary && body.length > 0,
    requestContext: {
      httpMethod: request.method,
      identity: { sourceIp: '192.0.2.10', userAgent: 'web component test' },
      path: `/${API_STAGE}${apiPath}`,
      stage: API_STAGE,
      requestId: crypto.randomUUID(),
      requestTimeEpoch: Date.now(),
      resourceId: route.id,
      resourcePath: route.path,
    } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}

function contextOf(route: Route): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `memory-${route.id}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:memory:000000000000:function:${route.id}`,
    memoryLimitInMB: '512',
    awsRequestId: crypto.randomUUID(),
    logGroupName: `/aws/lambda/${route.id}`,
    logStreamName: 'memory',
    getRemainingTimeInMillis: () => 28_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** One API call answered by its route's handler. */
async function answer(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const apiPath = url.pathname.slice(`/${API_STAGE}`.length) || '/';
  const m = match(request.method, apiPath);
  if ('error' in m) {
    const a = GATEWAY_ANSWERS.missingAuthenticationToken;
    return new HttpResponse(a.body, { status: a.status, headers: { 'Content-Type': a.contentType } });
  }
  const handler = handlerOf(m.route);
  const result = await handler(await eventOf(request, url, apiPath, m.route, m.params), contextOf(m.route));
  const backend = memoryBackend();
  if (backend.autoRunJobs) await backend.runJobs();
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
  return new HttpResponse(body, {
    status: result.statusCode,
    headers: result.headers as Record<string, string> | undefined,
  });
}

/** The bytes a browser PUTs to a presigned URL of the memory object storage. */
const storage = http.put(`${MEMORY_STORAGE_URL}/:bucket/*`, async ({ request, params }) => {
  const key = new URL(request.url).pathname.split('/').slice(2).join('/');
  await memoryBackend().blobs.put(
    String(params.bucket),
    decodeURIComponent(key),
    new Uint8Array(await request.arrayBuffer()),
  );
  return new HttpResponse(null, { status: 200 });
});

export const apiHandlers = [http.all(`/${API_STAGE}/*`, ({ request }) => answer(request)), storage];
