import type { Route } from './types';

/** The API's own description (issue 15): generated from the route table and shared/api/contract.ts. */
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
