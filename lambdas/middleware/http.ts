import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from 'zod';
import { routeById } from '../../shared/api/routes';
import type { UserRecord } from '../ports/user-repository';
import { type Authenticate, authorize } from './authorize';
import { clientSource } from './client-source';
import { errorMapper } from './error-mapper';
import { jsonBody } from './json-body';
import { logging } from './logging';
import { securityHeaders } from './security-headers';
import { validate } from './validate';

/** The event as the handler sees it after the middleware chain. */
export interface ApiEvent extends APIGatewayProxyEvent {
  /** parsed JSON body (undefined for raw routes) */
  jsonBody?: unknown;
  /** the signed-in user, on routes that are not public */
  user?: UserRecord;
  /** validated inputs */
  input: { body: unknown; query: unknown; params: unknown };
}

export interface Reply {
  statusCode?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Schemas<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType> {
  body?: B;
  query?: Q;
  params?: P;
  /** raw body (multipart upload): no JSON parsing; the handler reads event.body itself */
  raw?: boolean;
  /** largest accepted JSON body in bytes (default 256 KiB) */
  maxBodyBytes?: number;
}

export interface Input<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  user: UserRecord | undefined;
  event: ApiEvent;
  requestId: string;
  sourceIp: string;
}

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

/**
 * A route handler: the middy chain (error mapper, security headers, JSON body, authorization from the
 * route table, zod validation) around one function that calls a service. Handlers take it from
 * composition-http.ts, which passes the identity service's token check (`authenticate`).
 */
export function route<
  B extends z.ZodType = z.ZodType<undefined>,
  Q extends z.ZodType = z.ZodType<undefined>,
  P extends z.ZodType = z.ZodType<undefined>,
>(
  routeId: string,
  schemas: Schemas<B, Q, P>,
  fn: (input: Input<Out<B>, Out<Q>, Out<P>>) => Promise<Reply>,
  authenticate: Authenticate,
) {
  const r = routeById(routeId);
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>()
    .use(logging(r.id))
    .use(errorMapper())
    .use(securityHeaders())
    .use(jsonBody({ raw: schemas.raw ?? false, maxBytes: schemas.maxBodyBytes ?? 256 * 1024 }))
    .use(authorize(r.access, r.id, authenticate))
    .use(validate(schemas))
    .handler(async (event, context) => {
      const e = event as ApiEvent;
      const reply = await fn({
        body: e.input.body as Out<B>,
        query: e.input.query as Out<Q>,
        params: e.input.params as Out<P>,
        user: e.user,
        event: e,
        requestId: context.awsRequestId,
        // the real client (CloudFront viewer when proven, else the TCP peer), as a rate-limit key
        sourceIp: await clientSource(event),
      });
      return {
        statusCode: reply.statusCode ?? 200,
        headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...reply.headers },
        body: reply.body === undefined ? '' : JSON.stringify(reply.body),
      };
    });
}
