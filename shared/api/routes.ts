import { ACCESS_TOKEN_ROUTES } from './route-table/access-tokens';
import { ADMIN_ROUTES } from './route-table/admin';
import { API_DOCS_ROUTES } from './route-table/api-docs';
import { AUDIT_ROUTES } from './route-table/audit';
import { COMPANY_SIGN_ON_ROUTES } from './route-table/company-sign-on';
import { IDENTITY_ROUTES } from './route-table/identity';
import { PACKAGE_ROUTES } from './route-table/packages';
import { PASSKEY_ROUTES } from './route-table/passkeys';
import { PROVENANCE_ROUTES } from './route-table/provenance';
import { RESOURCE_ROUTES } from './route-table/resources';
import type { Route, RouteUses, TableName } from './route-table/types';

export type { Access, BucketName, HttpMethod, Route, RouteUses, TableName } from './route-table/types';

/**
 * The route table: every call of the API, once. The CDK stack (infra/lib/constructs/api.ts) makes one
 * Lambda and one API Gateway method per row; the local server (infra/local/server.ts) dispatches to the
 * same handler module per row. Nothing else declares an endpoint.
 *
 * `access`:
 *   - 'public'  — no token needed;
 *   - 'signedIn' — any valid token (every role, admin included);
 *   - a list of roles — a valid token whose user holds one of them.
 * Finer rules that depend on data (the package's initiator, its assigned approvers) are enforced by the
 * services; the table is the first, coarse gate (deny by default).
 *
 * `uses` lists the stores and services the handler touches; the CDK stack grants exactly these.
 *
 * The rows live in shared/api/route-table/ by area, one file per area holding its rows, their request
 * schemas and their answers (shared/api/contract.ts joins the schemas by route id). A handler reads only
 * its area's file (lambdas/routes/<area>.ts), the SPA only the generated shared/api/route-paths.ts:
 * neither loads this module, which brings every area's schemas (decision 269).
 */
const TABLE = [
  ...IDENTITY_ROUTES,
  ...RESOURCE_ROUTES,
  ...PACKAGE_ROUTES,
  ...ADMIN_ROUTES,
  ...AUDIT_ROUTES,
  ...API_DOCS_ROUTES,
  ...ACCESS_TOKEN_ROUTES,
  ...PROVENANCE_ROUTES,
  ...COMPANY_SIGN_ON_ROUTES,
  ...PASSKEY_ROUTES,
] as const;

/** The closed set of route ids: a row's id, and nothing else. */
export type RouteId = (typeof TABLE)[number]['id'];

/** The row of a route id, with its literal method and path. */
export type RouteRow<Id extends RouteId = RouteId> = Extract<(typeof TABLE)[number], { id: Id }>;

/** Rows whose access is not 'public': their handlers always get the signed-in user. */
export type GuardedRouteId = Exclude<RouteId, Extract<(typeof TABLE)[number], { access: 'public' }>['id']>;

export const ROUTES: readonly (Route & { id: RouteId })[] = TABLE;

/** API Gateway stage name; the API lives under /dev. */
export const API_STAGE = 'dev';

/** kebab-case module name of a route's handler. */
export function handlerFile(routeId: string): string {
  return routeId.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

export function routeById<Id extends RouteId>(id: Id): Route & { id: Id } {
  const r = ROUTES.find((x) => x.id === id);
  if (!r) throw new Error(`unknown route ${id}`);
  return r as Route & { id: Id };
}

/**
 * The tables a row (route or worker) may change: its `writes`, or, without it, every table it lists but
 * `users` (read by every gate, changed only by the rows that say so). GET rows change nothing whatever
 * this says (docs/decisions/011); the audit table is append-only for every writer (PutItem only).
 */
export function tablesWritten(uses: RouteUses): readonly TableName[] {
  if (uses.writes) {
    const stray = uses.writes.filter((t) => !uses.tables.includes(t));
    if (stray.length > 0) throw new Error(`writes names tables not in tables: ${stray.join(', ')}`);
    return uses.writes;
  }
  return uses.tables.filter((t) => t !== 'users');
}
