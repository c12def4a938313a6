import { ROUTE_PATHS } from '@shared/api/route-paths';
import type { RouteId } from '@shared/api/routes';

/**
 * The path of a route (under the API base) from its row in the route table, each `{name}` filled with its
 * value, encoded. It reads shared/api/route-paths.ts (generated from the rows): the rows sit beside their
 * zod schemas, which the first screen must not load (decision 269).
 */
export function routePath(id: RouteId, params: Readonly<Record<string, string>> = {}): string {
  return ROUTE_PATHS[id][1].replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`route ${id} needs its path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/**
 * A route's path as a pattern with `:name` parameters (MSW, routers), from its row: the mock and tests
 * register on the same paths the client calls.
 */
export function routePattern(id: RouteId): string {
  return ROUTE_PATHS[id][1].replace(/\{(\w+)\}/g, ':$1');
}
