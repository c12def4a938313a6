import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { nameFunctionsBy } from '../../lambdas/observability/logger';
import { buildRouter } from '../../shared/api/route-matcher';
import { API_STAGE, handlerFile, type Route } from '../../shared/api/routes';
import {
  BINARY_MEDIA_TYPES,
  GATEWAY_ANSWERS,
  type GatewayAnswer,
  MAX_EVENT_BYTES,
  MAX_REQUEST_BYTES,
  MAX_RESPONSE_BYTES,
  securityHeadersWithConnectSources,
} from '../../shared/api/runtime';
import { approvalPolicyNameFromEnv, DEFAULT_APPROVAL_POLICY } from '../../shared/domain/approval-policies';
import { API_ERR } from '../../shared/messages';
import {
  checkSiteSettings,
  SITE_SETTING_SOURCES,
  SITE_SETTINGS_PATH,
  type SiteSettings,
} from '../../shared/site-settings';
import { asRouteInvocation, crashSeamControl, installCrashSeam } from './crash-seam';
import { installLocalIamChecks, routeScope } from './iam-check';
import { installS3MultipartShim } from './s3-multipart-shim';
import { INVOCATIONS_PATH, InvocationCounter, passesStageGuard, STAGE_GUARD_ANSWER } from './stage-guard';

export type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** The local gateway's own lines (a failed or oversized function answer), structured like the functions' logs. */
const gatewayLog = new Logger({ serviceName: 'local-gateway' });

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

const handlers = new Map<string, Promise<Handler>>();
function loadHandler(route: Route): Promise<Handler> {
  let h = handlers.get(route.id);
  if (!h) {
    const attempt = import(`../../lambdas/handlers/${handlerFile(route.id)}.ts`).then(
      (m: { handler: Handler }) => m.handler,
    );
    h = attempt;
    handlers.set(route.id, attempt);
    // as a Lambda's init phase, a failed load is tried again on the next request
    attempt.catch(() => {
      if (handlers.get(route.id) === attempt) handlers.delete(route.id);
    });
  }
  return h;
}

/** The response headers policy, applied to every answer over what the handler set (CloudFront's override). */
type Policy = Record<string, string>;

function send(
  res: ServerResponse,
  policy: Policy,
  status: number,
  headers: Record<string, string>,
  body: string | Buffer,
) {
  res.writeHead(status, { ...headers, ...policy });
  res.end(body);
}

function sendJson(res: ServerResponse, policy: Policy, status: number, body: unknown) {
  send(
    res,
    policy,
    status,
    { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
    JSON.stringify(body),
  );
}

/** An answer of API Gateway itself, as AWS sends it (status, content type, error type header, body). */
function sendGateway(res: ServerResponse, policy: Policy, answer: GatewayAnswer, requestId: string) {
  send(
    res,
    policy,
    answer.status,
    {
      'Content-Type': answer.contentType,
      'x-amzn-RequestId': requestId,
      ...(answer.errorType ? { 'x-amzn-ErrorType': answer.errorType } : {}),
    },
    answer.body,
  );
}

/** The size Lambda measures for a synchronous invocation: the JSON it is sent or returns. */
export const invocationBytes = (payload: unknown): number => Buffer.byteLength(JSON.stringify(payload));

function readBody(req: IncomingMessage): Promise<Buffer | 'tooLarge'> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_REQUEST_BYTES) over = true;
      else chunks.push(c);
    });
    req.on('end', () => resolveBody(over ? 'tooLarge' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The API Gateway (REST, proxy integration) event for a request, as Lambda would receive it. */
export function toProxyEvent(
  req: IncomingMessage,
  url: URL,
  apiPath: string,
  route: Route,
  params: Record<string, string>,
  body: Buffer,
  requestId: string,
): APIGatewayProxyEvent {
  // Collected in Maps: names come from the caller, and one like `__proto__` or `constructor` must be a
  // plain key of the event's maps, not a lookup into Object.prototype.
  const headerMap = new Map<string, string>();
  const multiHeaderMap = new Map<string, string[]>();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const k = req.rawHeaders[i]!;
    const v = req.rawHeaders[i + 1]!;
    headerMap.set(k, v);
    multiHeaderMap.set(k, [...(multiHeaderMap.get(k) ?? []), v]);
  }
  const queryMap = new Map<string, string>();
  const multiQueryMap = new Map<string, string[]>();
  for (const [k, v] of url.searchParams) {
    queryMap.set(k, v);
    multiQueryMap.set(k, [...(multiQueryMap.get(k) ?? []), v]);
  }
  const headers = Object.fromEntries(headerMap);
  const multiValueHeaders = Object.fromEntries(multiHeaderMap);
  const query = Object.fromEntries(queryMap);
  const multiQuery = Object.fromEntries(multiQueryMap);
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const binary = BINARY_MEDIA_TYPES.includes(contentType);
  const hasQuery = Object.keys(query).length > 0;
  return {
    resource: route.path,
    path: apiPath,
    httpMethod: req.method ?? 'GET',
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters: Object.keys(params).length ? params : null,
    stageVariables: null,
    body: body.length === 0 ? null : binary ? body.toString('base64') : body.toString('utf8'),
    isBase64Encoded: binary && body.length > 0,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      authorizer: null,
      protocol: 'HTTP/1.1',
      httpMethod: req.method ?? 'GET',
      // every field API Gateway sends, so the event's size (Lambda's 6 MB limit) is AWS's within a few bytes
      identity: {
        cognitoIdentityPoolId: null,
        accountId: null,
        cognitoIdentityId: null,
        caller: null,
        sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
        principalOrgId: null,
        accessKey: null,
        cognitoAuthenticationType: null,
        cognitoAuthenticationProvider: null,
        userArn: null,
        userAgent: req.headers['user-agent'] ?? null,
        user: null,
        apiKey: null,
        apiKeyId: null,
        clientCert: null,
      } as APIGatewayProxyEvent['requestContext']['identity'],
      domainName: req.headers.host ?? 'localhost',
      domainPrefix: (req.headers.host ?? 'localhost').split('.')[0],
      extendedRequestId: requestId,
      requestTime: new Date().toUTCString(),
      path: `/${API_STAGE}${apiPath}`,
      stage: API_STAGE,
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: route.id,
      resourcePath: route.path,
    },
  };
}

function lambdaContext(route: Route, requestId: string): Context {
  // 28 s as in AWS; only the bench lifts it (BENCH_LAMBDA_DEADLINE_MS) to time work that would 504 there
  const deadline = Date.now() + Number(process.env.BENCH_LAMBDA_DEADLINE_MS ?? 28_000);
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `local-${route.id}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${route.id}`,
    memoryLimitInMB: String(route.memoryMb ?? 512),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${route.id}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/**
 * The stage's web ACL, API Gateway (REST, Lambda proxy) and Lambda, in the order AWS checks: the origin
 * check of the web ACL (decision 308), the request size (10 MB), the route (403 for anything the API does
 * not have), the event size after base64 encoding of binary bodies (6 MB), the handler, then its response
 * size (6 MB). Each refusal is AWS's own answer (docs/decisions/090-local-gateway-limits.md).
 */
async function handleApi(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  match: ReturnType<typeof buildRouter>,
  policy: Policy,
  load: (route: Route) => Promise<Handler>,
  invocations: InvocationCounter,
) {
  const apiPath = url.pathname.slice(`/${API_STAGE}`.length) || '/';
  const requestId = randomUUID();
  if (!passesStageGuard(req.headers)) {
    req.resume();
    return sendJson(res, policy, STAGE_GUARD_ANSWER.status, JSON.parse(STAGE_GUARD_ANSWER.body));
  }
  const body = await readBody(req);
  if (body === 'tooLarge') return sendGateway(res, policy, GATEWAY_ANSWERS.requestTooLarge, requestId);
  const m = match(req.method ?? 'GET', apiPath);
  // API Gateway answers an unknown path and a method the path lacks alike (MISSING_AUTHENTICATION_TOKEN)
  if ('error' in m) return sendGateway(res, policy, GATEWAY_ANSWERS.missingAuthenticationToken, requestId);
  const event = toProxyEvent(req, url, apiPath, m.route, m.params, body, requestId);
  if (invocationBytes(event) >= MAX_EVENT_BYTES)
    return sendGateway(res, policy, GATEWAY_ANSWERS.eventTooLarge, requestId);
  let result: APIGatewayProxyResult;
  try {
    const handler = await load(m.route);
    invocations.count(m.route.id);
    // every AWS call the handler makes is checked against its row's `uses`, as its role would be; the
    // crash seam (tests only, FRP_CRASH_SEAM=1) may end the invocation after a write (decision 291)
    result = await asRouteInvocation(m.route.id, event, (e) =>
      routeScope.run(m.route, () => handler(e, lambdaContext(m.route, requestId))),
    );
  } catch (e) {
    gatewayLog.error('function failed', { requestId, route: m.route.id, reason: (e as Error).message });
    return sendGateway(res, policy, GATEWAY_ANSWERS.internalServerError, requestId);
  }
  if (invocationBytes(result) > MAX_RESPONSE_BYTES) {
    // Lambda refuses to return it ("Response payload size exceeded maximum allowed payload size"),
    // and API Gateway answers as for any failed function; the log says why, as CloudWatch would.
    gatewayLog.error('function failed', {
      requestId,
      route: m.route.id,
      reason: `Response payload size exceeded maximum allowed payload size (${MAX_RESPONSE_BYTES} bytes).`,
    });
    return sendGateway(res, policy, GATEWAY_ANSWERS.internalServerError, requestId);
  }
  const payload = result.isBase64Encoded
    ? Buffer.from(result.body, 'base64')
    : Buffer.from(result.body ?? '', 'utf8');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k] = String(v);
  send(res, policy, result.statusCode, headers, payload);
}

/**
 * The site settings the local server writes as /config.json, from the environment variables of
 * shared/site-settings.ts (COMPANY_NAME, COMPANY_ADDRESS, PRIVACY_URL, ACCESSIBILITY_URL, TERMS_URL), as
 * the stack writes them from context. A bad value stops the start, as it fails the synth.
 */
export function siteSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): SiteSettings {
  const raw = Object.fromEntries(
    Object.entries(SITE_SETTING_SOURCES).map(([key, source]) => [key, env[source.env]]),
  );
  const { settings, problems } = checkSiteSettings(raw);
  if (problems.length > 0) throw new Error(`site settings: ${problems.join('; ')}`);
  return settings;
}

function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  webRoot: string,
  policy: Policy,
  site: SiteSettings,
) {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return sendJson(res, policy, 405, { errorMessage: 'Method not allowed' });
  if (url.pathname === SITE_SETTINGS_PATH) {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache', ...policy });
    // the approval policy the stack runs, so the SPA shows the same turns the API enforces (decision 338)
    const body = { ...site, approvalPolicy: approvalPolicyNameFromEnv() ?? DEFAULT_APPROVAL_POLICY };
    return res.end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
  }
  const index = join(webRoot, 'index.html');
  if (!existsSync(index)) {
    return send(
      res,
      policy,
      200,
      { 'Content-Type': 'text/html; charset=utf-8' },
      '<!doctype html><html lang="en"><title>Firmware Release Portal</title><h1>Firmware Release Portal</h1><p>The web app is not built. Run <code>npm run build:web</code> (npm start does it for you).</p></html>',
    );
  }
  let rel: string;
  try {
    rel = decodeURIComponent(url.pathname);
  } catch {
    rel = '/';
  }
  const file = resolve(webRoot, normalize(`.${rel}`));
  const inside = file === webRoot || file.startsWith(webRoot + sep);
  const isFile = inside && existsSync(file) && statSync(file).isFile();
  // SPA fallback: any path that is not a file is a client route, answered with index.html.
  const target = isFile ? file : index;
  const type = MIME[extname(target)] ?? 'application/octet-stream';
  const immutable = isFile && rel.startsWith('/assets/');
  res.writeHead(200, {
    'Content-Type': type,
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...policy,
  });
  if (req.method === 'HEAD') return res.end();
  createReadStream(target).pipe(res);
}

export interface LocalServerOptions {
  /** the route table (tests of the gateway pass their own rows); ROUTES by default */
  routes?: readonly Route[];
  /** loads a row's handler; the module lambdas/handlers/<id>.ts by default */
  loadHandler?: (route: Route) => Promise<Handler>;
  /** what /config.json says; from the environment by default (siteSettingsFromEnv) */
  siteSettings?: SiteSettings;
}

/**
 * One port: the API under /dev (the real handler modules) and the built SPA everywhere else. Every answer
 * carries the security headers CloudFront adds in AWS; `connectSources` are the storage origins of
 * presigned URLs, added to the CSP's connect-src as CloudFront's policy adds the S3 bucket hosts.
 */
export function createLocalServer(
  webRoot: string,
  connectSources: readonly string[] = [],
  options: LocalServerOptions = {},
): Server {
  installLocalIamChecks();
  installS3MultipartShim();
  installCrashSeam();
  // one process runs every function: each log line names the route or worker that wrote it
  nameFunctionsBy(() => routeScope.getStore()?.id);
  const match = buildRouter(options.routes);
  const load = options.loadHandler ?? loadHandler;
  const site = options.siteSettings ?? siteSettingsFromEnv();
  const root = resolve(webRoot);
  const policy = securityHeadersWithConnectSources(connectSources);
  const invocations = new InvocationCounter();
  const stats = process.env.LOCAL_GATEWAY_STATS === 'true';
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const isApi = url.pathname === `/${API_STAGE}` || url.pathname.startsWith(`/${API_STAGE}/`);
    if (stats && url.pathname === INVOCATIONS_PATH)
      return sendJson(res, policy, 200, { total: invocations.total, byRoute: invocations.snapshot() });
    const work = crashSeamControl(req, res, url).then((answered) => {
      if (answered) return;
      return isApi
        ? handleApi(req, res, url, match, policy, load, invocations)
        : serveStatic(req, res, url, root, policy, site);
    });
    work.catch((e) => {
      gatewayLog.error('request failed', { reason: (e as Error).message });
      if (!res.headersSent) sendJson(res, policy, 500, { errorMessage: API_ERR.internal });
      else res.end();
    });
  });
}
