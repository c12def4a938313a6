import { ACCESS_TOKEN_CONTRACT, ACCESS_TOKEN_ROUTES } from '../../shared/api/route-table/access-tokens';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';

/** route(id, fn) of the access token rows (shared/api/route-table/access-tokens.ts). */
export const route = routesOf(ACCESS_TOKEN_ROUTES, ACCESS_TOKEN_CONTRACT, authenticate);
