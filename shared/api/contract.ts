import type * as z from 'zod';
import { ACCESS_TOKEN_CONTRACT } from './route-table/access-tokens-contract';
import { ACCESS_TOKEN_RESPONSES } from './route-table/access-tokens-responses';
import { ADMIN_CONTRACT } from './route-table/admin-contract';
import { ADMIN_RESPONSES } from './route-table/admin-responses';
import { API_DOCS_CONTRACT } from './route-table/api-docs-contract';
import { API_DOCS_RESPONSES } from './route-table/api-docs-responses';
import { IDENTITY_CONTRACT } from './route-table/identity-contract';
import { IDENTITY_RESPONSES } from './route-table/identity-responses';
import { PACKAGE_CONTRACT } from './route-table/packages-contract';
import { PACKAGE_RESPONSES } from './route-table/packages-responses';
import { PROVENANCE_CONTRACT } from './route-table/provenance-contract';
import { PROVENANCE_RESPONSES } from './route-table/provenance-responses';
import { RESOURCE_CONTRACT } from './route-table/resources-contract';
import { RESOURCE_RESPONSES } from './route-table/resources-responses';
import type { RouteContract, RouteRequest } from './route-table/types';
import type { RouteId } from './routes';

export type { RouteContract, RouteRequest } from './route-table/types';

/** What each route takes: the request parts a handler validates (its area's *-contract.ts). */
const REQUESTS = {
  ...IDENTITY_CONTRACT,
  ...RESOURCE_CONTRACT,
  ...PACKAGE_CONTRACT,
  ...ADMIN_CONTRACT,
  ...API_DOCS_CONTRACT,
  ...ACCESS_TOKEN_CONTRACT,
  ...PROVENANCE_CONTRACT,
} as const satisfies { [Id in RouteId]: RouteRequest };

/** What each route answers on success (its area's *-responses.ts). */
const RESPONSES = {
  ...IDENTITY_RESPONSES,
  ...RESOURCE_RESPONSES,
  ...PACKAGE_RESPONSES,
  ...ADMIN_RESPONSES,
  ...API_DOCS_RESPONSES,
  ...ACCESS_TOKEN_RESPONSES,
  ...PROVENANCE_RESPONSES,
} as const satisfies { [Id in RouteId]: z.ZodType };

type Joined = {
  [Id in RouteId]: (typeof REQUESTS)[Id] & { response: (typeof RESPONSES)[Id] };
};

/**
 * The typed contract of every route table row (shared/api/routes.ts), keyed by its id: one parallel map,
 * so the rows stay free of zod for the CDK stack, the local server and the SPA's URL builder. It joins
 * one part per area, like the rows, each in two files: shared/api/route-table/<area>-contract.ts (the
 * request: params, query, body, multipart, maxBodyBytes, statuses) and <area>-responses.ts (the answer).
 * A handler's route() is bound to its area's request part (lambdas/routes/<area>.ts) and reaches the
 * answers only through this module's types (`import type`), so a Lambda bundles and builds no response
 * schema. GET /dev/openapi.json is generated from the whole map; the SPA's client takes its answer types
 * from it (types only).
 */
export const CONTRACT = Object.fromEntries(
  (Object.keys(REQUESTS) as RouteId[]).map((id) => [id, { ...REQUESTS[id], response: RESPONSES[id] }]),
) as Joined satisfies { [Id in RouteId]: RouteContract };

export type Contract = typeof CONTRACT;

type Out<C, K extends string> = C extends { [P in K]: infer S extends z.ZodType } ? z.output<S> : undefined;

/** The validated path parameters, query and body of a route, as its handler gets them. */
export type RequestOf<Id extends RouteId> = {
  params: Out<Contract[Id], 'params'>;
  query: Out<Contract[Id], 'query'>;
  body: Out<Contract[Id], 'body'>;
};
/** What a client sends: the schemas' input types. */
export type RequestInputOf<Id extends RouteId> = {
  [K in 'params' | 'query' | 'body' as Contract[Id] extends { [P in K]: z.ZodType }
    ? K
    : never]: Contract[Id] extends {
    [P in K]: infer S extends z.ZodType;
  }
    ? z.input<S>
    : never;
};
/** The body of a successful answer: what the handler returns and the client gets. */
export type ResponseOf<Id extends RouteId> = z.output<Contract[Id]['response']>;
