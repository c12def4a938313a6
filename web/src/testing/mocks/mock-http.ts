import type { PublicUser } from '@shared/api/contracts/user';
import { API_STAGE, ROUTES } from '@shared/api/routes';
import { API_ERR } from '@shared/messages';
import { HttpResponse, type HttpResponseResolver, http } from 'msw';
import { db } from './db';

/**
 * What every mock handler shares: answers in the API's shape, the caller from the bearer token, and
 * the paths of the route table (shared/api/routes.ts), so the mock answers exactly the calls the API has.
 */

export const json = (body: unknown, status = 200) =>
  HttpResponse.json(body as Record<string, unknown>, { status });

/** An error answer as the API gives it: `{ errorMessage, … }`. */
export const fail = (status: number, errorMessage: string, extra: Record<string, unknown> = {}) =>
  json({ errorMessage, ...extra }, status);

/** The JSON body, or {} when it is not JSON. */
export async function body<T>(request: Request): Promise<Partial<T>> {
  try {
    return (await request.json()) as Partial<T>;
  } catch {
    return {};
  }
}

/** The signed-in user of a request (its bearer token), if any. */
export function caller(request: Request): PublicUser | undefined {
  const header = request.headers.get('Authorization') ?? '';
  const id = db.tokens.get(header.startsWith('Bearer ') ? header.slice(7) : '');
  return id ? db.users.find((u) => u.id === id) : undefined;
}

export type Gate<U> = { error: Response; user?: undefined } | { error?: undefined; user: U };

/** 401 unless signed in; 403 unless the role is allowed. */
export function gate(request: Request, roles?: readonly string[]): Gate<PublicUser> {
  const user = caller(request);
  if (!user) return { error: fail(401, API_ERR.invalidToken) };
  if (roles && !roles.includes(user.userRole)) return { error: fail(403, API_ERR.forbidden) };
  return { user };
}

/** A route's path as MSW writes it: `/dev/packages/:id/header` for `/packages/{id}/header`. */
export function mockPath(routeId: string): string {
  const row = ROUTES.find((r) => r.id === routeId);
  if (!row) throw new Error(`the route table has no route ${routeId}`);
  return `/${API_STAGE}${row.path.replace(/\{(\w+)\}/g, ':$1')}`;
}

const METHODS = { GET: http.get, POST: http.post, PATCH: http.patch, PUT: http.put, DELETE: http.delete };

/** The mock handler of one route of the route table (its method and path). */
export function on(routeId: string, resolver: HttpResponseResolver) {
  const row = ROUTES.find((r) => r.id === routeId);
  if (!row) throw new Error(`the route table has no route ${routeId}`);
  return METHODS[row.method](mockPath(routeId), resolver);
}
