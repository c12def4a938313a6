import { loadUserService } from './composition';
import type { Authenticate } from './middleware/authorize';

/**
 * The token check every guarded route's gate uses (middleware/authorize.ts), with the identity service
 * built here: middleware never imports a composition module, so lambdas/routes/<area>.ts bind route()
 * to this check.
 */
export const authenticate: Authenticate = async (token) => (await loadUserService()).authenticate(token);
