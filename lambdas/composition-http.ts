import { isAccessTokenBearer } from '../shared/domain/access-tokens';
import { loadTokenService, userRepository } from './composition';
import { accessTokenService } from './composition-access-tokens';
import type { Authenticate } from './middleware/authorize';
import { systemClock } from './ports/clock';
import { authenticate as checkToken } from './services/users/sign-in';

/**
 * The token check every guarded route's gate uses (middleware/authorize.ts): the identity service's own
 * check (services/users/sign-in.ts) over the token key, the user table and the clock, without the rest of
 * the identity service, so a Lambda outside identity bundles and builds none of its use cases. Middleware
 * never imports a composition module, so lambdas/routes/<area>.ts bind route() to this check.
 */
export const authenticate: Authenticate = async (token, route) =>
  // an access token is checked against its row's scope; a session token as before
  token && isAccessTokenBearer(token)
    ? accessTokenService().authenticate(token, route)
    : checkToken({ tokens: await loadTokenService(), users: userRepository(), clock: systemClock }, token);
