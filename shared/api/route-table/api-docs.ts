import * as z from 'zod';
import type { Route, RouteRequest } from './types';

/** The API's own description: generated from the route table and shared/api/contract.ts. */
export const API_DOCS_ROUTES = [
  {
    id: 'openapi',
    method: 'GET',
    path: '/openapi.json',
    access: 'public',
    uses: { tables: [] },
    summary: 'This API as an OpenAPI 3.1 document, for build pipelines and device teams to script against',
  },
] as const satisfies readonly Route[];

/** The OpenAPI document takes nothing. */
export const API_DOCS_CONTRACT = {
  openapi: {},
} as const satisfies { [Id in (typeof API_DOCS_ROUTES)[number]['id']]: RouteRequest };

/** The OpenAPI document: an object with its version; its shape is OpenAPI's own. */
export const API_DOCS_RESPONSES = {
  openapi: z.looseObject({ openapi: z.string() }),
} as const satisfies { [Id in (typeof API_DOCS_ROUTES)[number]['id']]: z.ZodType };
