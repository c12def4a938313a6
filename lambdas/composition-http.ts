import type * as z from 'zod';
import { loadUserService } from './composition';
import type { Authenticate } from './middleware/authorize';
import { route as httpRoute, type Schemas } from './middleware/http';

/**
 * The `route()` handlers use: the middy chain of middleware/http.ts, authorizing with the token check of
 * the identity service built here (middleware never imports a composition module).
 */
const authenticate: Authenticate = async (token) => (await loadUserService()).authenticate(token);

export function route<
  B extends z.ZodType = z.ZodType<undefined>,
  Q extends z.ZodType = z.ZodType<undefined>,
  P extends z.ZodType = z.ZodType<undefined>,
>(routeId: string, schemas: Schemas<B, Q, P>, fn: Parameters<typeof httpRoute<B, Q, P>>[2]) {
  return httpRoute(routeId, schemas, fn, authenticate);
}
