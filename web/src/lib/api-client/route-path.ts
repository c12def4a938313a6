import { type RouteId, routeById } from '@shared/api/routes';

/**
 * The path of a route (under the API base) from its row in the route table, each `{name}` filled with its
 * value, encoded. The rows carry no zod, so this costs the first screen only the table itself.
 */
export function routePath(id: RouteId, params: Readonly<Record<string, string>> = {}): string {
  return routeById(id).path.replace(/\{(\w+)\}/g, (_, name: string) => {
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
  return routeById(id).path.replace(/\{(\w+)\}/g, ':$1');
}
