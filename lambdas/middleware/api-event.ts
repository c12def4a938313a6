import type { APIGatewayProxyEvent } from 'aws-lambda';
import type * as z from 'zod';
import type { UserRecord } from '../ports/user-repository';

/**
 * The event as the middleware chain leaves it for the handler. Its own module, below http.ts and the
 * middlewares that fill it in (authorize, json-body, validate), so none of them imports http.ts back.
 */
export interface ApiEvent extends APIGatewayProxyEvent {
  /** parsed JSON body (undefined for raw routes) */
  jsonBody?: unknown;
  /** the signed-in user, on routes that are not public */
  user?: UserRecord;
  /** validated inputs */
  input: { body: unknown; query: unknown; params: unknown };
}

/** What validate() checks of a request (a row's request schemas in shared/api/contract.ts). */
export interface RequestSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** raw body (multipart upload): no JSON parsing; the handler reads event.body itself */
  raw?: boolean;
  /** largest accepted JSON body in bytes (default 256 KiB) */
  maxBodyBytes?: number;
}
