import type * as z from 'zod';
import { ADMIN_CONTRACT } from './route-table/admin-contract';
import { API_DOCS_CONTRACT } from './route-table/api-docs-contract';
import { IDENTITY_CONTRACT } from './route-table/identity-contract';
import { PACKAGE_CONTRACT } from './route-table/packages-contract';
import { RESOURCE_CONTRACT } from './route-table/resources-contract';
import type { RouteContract } from './route-table/types';
import type { RouteId } from './routes';

export type { RouteContract } from './route-table/types';

/**
 * The typed contract of every route table row (shared/api/routes.ts), keyed by its id: one parallel map,
 * so the rows stay free of zod for the CDK stack, the local server and the SPA's URL builder. It is
 * joined from one part per area (shared/api/route-table/*-contract.ts), like the rows: a handler's
 * route() is bound to its area's part (lambdas/middleware/*-route.ts), so a Lambda bundles and builds
 * only its area's schemas. GET /dev/openapi.json is generated from the whole map; the SPA's client takes
 * its answer types from it (types only).
 */
export const CONTRACT = {
  ...IDENTITY_CONTRACT,
  ...RESOURCE_CONTRACT,
  ...PACKAGE_CONTRACT,
  ...ADMIN_CONTRACT,
  ...API_DOCS_CONTRACT,
} as const satisfies { [Id in RouteId]: RouteContract };

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
