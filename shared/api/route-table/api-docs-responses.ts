import * as z from 'zod';
import type { API_DOCS_ROUTES } from './api-docs';

/** The OpenAPI document: an object with its version; its shape is OpenAPI's own. */
export const API_DOCS_RESPONSES = {
  openapi: z.looseObject({ openapi: z.string() }),
} as const satisfies { [Id in (typeof API_DOCS_ROUTES)[number]['id']]: z.ZodType };
