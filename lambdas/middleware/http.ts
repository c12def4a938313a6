import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from 'zod';
import type { Contract, RequestOf, RouteRequest } from '../../shared/api/contract';
import type { GuardedRouteId, Route, RouteId } from '../../shared/api/routes';
import type { UserRecord } from '../ports/user-repository';
import type { ApiEvent, RequestSchemas } from './api-event';
import { type Authenticate, authorize } from './authorize';
import { clientSource } from './client-source';
import { errorMapper } from './error-mapper';
import { jsonBody } from './json-body';
import { logging } from './logging';
import { originVerify } from './origin-verify';
import { securityHeaders } from './security-headers';
import { validate } from './validate';

export type { ApiEvent } from './api-event';

export interface Reply<B = unknown> {
  statusCode?: number;
  body?: B;
  headers?: Record<string, string>;
}

/** What a route's function gets: its validated request (typed by its contract), and the caller. */
export type Input<Id extends RouteId> = RequestOf<Id> & {
  /** the signed-in user: always there on rows that are not public, never on public ones */
  user: Id extends GuardedRouteId ? UserRecord : undefined;
  event: ApiEvent;
  requestId: string;
  sourceIp: string;
};

/** The answer a route's function may give: its contract's response body. */
export type ReplyOf<Id extends RouteId> = Reply<z.input<Contract[Id]['response']>>;

/** The request parts of a contract, as the middlewares read them. */
function requestSchemas(c: RouteRequest): RequestSchemas {
  return {
    params: c.params,
    query: c.query,
    body: c.body,
    raw: c.multipart ?? false,
    maxBodyBytes: c.maxBodyBytes ?? 256 * 1024,
  };
}

/**
 * The route() of one area (shared/api/route-table/<area>.ts): its rows and their request schemas. Each
 * lambdas/routes/<area>.ts binds one, so a handler bundles and builds its own area's declarations only,
 * never the whole table (shared/api/routes.ts) nor every area's schemas (decision 269). The answer is
 * typed from the whole contract (`import type`).
 */
export function routesOf<M extends { [Id in RouteId]?: RouteRequest }>(
  rows: readonly Route[],
  contracts: M,
  authenticate: Authenticate,
) {
  return <Id extends keyof M & RouteId>(routeId: Id, fn: (input: Input<Id>) => Promise<ReplyOf<Id>>) => {
    const row = rows.find((x) => x.id === routeId);
    if (!row) throw new Error(`route ${routeId} is not a row of this area`);
    return route(row as Route & { id: Id }, contracts[routeId] as RouteRequest, fn, authenticate);
  };
}

/**
 * A route handler: the middy chain (error mapper, security headers, the CloudFront origin check, JSON
 * body, authorization from the route table, zod validation from the route's contract) around one function
 * that calls a service. The
 * row says it all: its access, and its contract (request schemas; the answer's type from shared/api/contract.ts).
 */
function route<Id extends RouteId>(
  r: Route & { id: Id },
  contract: RouteRequest,
  fn: (input: Input<Id>) => Promise<ReplyOf<Id>>,
  authenticate: Authenticate,
) {
  const schemas = requestSchemas(contract);
  return (
    middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>()
      .use(logging(r.id))
      .use(errorMapper())
      .use(securityHeaders())
      // before anything is parsed or read: a call that skipped CloudFront (and its web ACL) goes no further
      .use(originVerify())
      .use(jsonBody({ raw: schemas.raw ?? false, maxBytes: schemas.maxBodyBytes ?? 256 * 1024 }))
      .use(authorize(r.access, r.id, authenticate, r.ungranted === true, r))
      .use(validate(schemas))
      .handler(async (event, context) => {
        const e = event as ApiEvent;
        // authorize() sets the user on every row that is not public, or throws
        if (r.access !== 'public' && !e.user) throw new Error(`route ${r.id}: no user after authorization`);
        const input = {
          ...(e.input as RequestOf<Id>),
          user: e.user as Input<Id>['user'],
          event: e,
          requestId: context.awsRequestId,
          // the real client (CloudFront viewer when proven, else the TCP peer), as a rate-limit key
          sourceIp: await clientSource(event),
        };
        const reply = await fn(input);
        if (contract.produces)
          return {
            statusCode: reply.statusCode ?? 200,
            headers: { 'Content-Type': contract.produces, 'Cache-Control': 'no-store', ...reply.headers },
            body: String(reply.body ?? ''),
          };
        return {
          statusCode: reply.statusCode ?? 200,
          headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...reply.headers },
          body: reply.body === undefined ? '' : JSON.stringify(reply.body),
        };
      })
  );
}
