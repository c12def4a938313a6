import { ACCESS_TOKEN_CONTRACT } from '../../shared/api/route-table/access-tokens-contract';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';

/** route(id, fn) of the access token rows (shared/api/route-table/access-tokens.ts). */
export const route = routesOf(ACCESS_TOKEN_CONTRACT, authenticate);
