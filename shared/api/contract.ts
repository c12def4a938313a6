import type * as z from 'zod';
import { ACCESS_TOKEN_CONTRACT, ACCESS_TOKEN_RESPONSES } from './route-table/access-tokens';
import { ADMIN_CONTRACT, ADMIN_RESPONSES } from './route-table/admin';
import { API_DOCS_CONTRACT, API_DOCS_RESPONSES } from './route-table/api-docs';
import { AUDIT_CONTRACT, AUDIT_RESPONSES } from './route-table/audit';
import { COMPANY_SIGN_ON_CONTRACT, COMPANY_SIGN_ON_RESPONSES } from './route-table/company-sign-on';
import { IDENTITY_CONTRACT, IDENTITY_RESPONSES } from './route-table/identity';
import { PACKAGE_CONTRACT, PACKAGE_RESPONSES } from './route-table/packages';
import { PASSKEY_CONTRACT, PASSKEY_RESPONSES } from './route-table/passkeys';
import { PROVENANCE_CONTRACT, PROVENANCE_RESPONSES } from './route-table/provenance';
import { RESOURCE_CONTRACT, RESOURCE_RESPONSES } from './route-table/resources';
import type { RouteContract, RouteRequest } from './route-table/types';
import type { RouteId } from './routes';

export type { RouteContract, RouteRequest } from './route-table/types';

/** What each route takes: the request parts a handler validates (`<AREA>_CONTRACT` of its area's file). */
const REQUESTS = {
  ...IDENTITY_CONTRACT,
  ...RESOURCE_CONTRACT,
  ...PACKAGE_CONTRACT,
  ...ADMIN_CONTRACT,
  ...AUDIT_CONTRACT,
  ...API_DOCS_CONTRACT,
  ...ACCESS_TOKEN_CONTRACT,
  ...PROVENANCE_CONTRACT,
  ...COMPANY_SIGN_ON_CONTRACT,
  ...PASSKEY_CONTRACT,
} as const satisfies { [Id in RouteId]: RouteRequest };

/** What each route answers on success (`<AREA>_RESPONSES` of its area's file). */
const RESPONSES = {
  ...IDENTITY_RESPONSES,
  ...RESOURCE_RESPONSES,
  ...PACKAGE_RESPONSES,
  ...ADMIN_RESPONSES,
  ...AUDIT_RESPONSES,
  ...API_DOCS_RESPONSES,
  ...ACCESS_TOKEN_RESPONSES,
  ...PROVENANCE_RESPONSES,
  ...COMPANY_SIGN_ON_RESPONSES,
  ...PASSKEY_RESPONSES,
} as const satisfies { [Id in RouteId]: z.ZodType };

type Joined = {
  [Id in RouteId]: (typeof REQUESTS)[Id] & { response: (typeof RESPONSES)[Id] };
};

/**
 * The typed contract of every route table row (shared/api/routes.ts), keyed by its id. Each area's file
 * in shared/api/route-table/ holds its rows (`<AREA>_ROUTES`), their requests (`<AREA>_CONTRACT`: params,
 * query, body, multipart, maxBodyBytes, statuses) and their answers (`<AREA>_RESPONSES`); this module joins
 * the requests and answers of every area. GET /dev/openapi.json is generated from the whole map; the SPA's
 * client takes its answer types from it (types only). A handler reaches its own area's file only
 * (lambdas/routes/<area>.ts), never this module (decision 269).
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
