import type { API_DOCS_ROUTES } from './api-docs';
import type { RouteRequest } from './types';

/** The OpenAPI document takes nothing; its answer is in api-docs-responses.ts. */
export const API_DOCS_CONTRACT = {
  openapi: {},
} as const satisfies { [Id in (typeof API_DOCS_ROUTES)[number]['id']]: RouteRequest };
