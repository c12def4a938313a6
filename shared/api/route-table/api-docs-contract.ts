import * as z from 'zod';
import type { API_DOCS_ROUTES } from './api-docs';
import type { RouteContract } from './types';

/** The OpenAPI document: an object with its version; its shape is OpenAPI's own. */
export const API_DOCS_CONTRACT = {
  openapi: { response: z.looseObject({ openapi: z.string() }) },
} as const satisfies { [Id in (typeof API_DOCS_ROUTES)[number]['id']]: RouteContract };
