import { IDENTITY_CONTRACT, IDENTITY_ROUTES } from '../../shared/api/route-table/identity';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';

/** route(id, fn) of the identity rows (shared/api/route-table/identity.ts). */
export const route = routesOf(IDENTITY_ROUTES, IDENTITY_CONTRACT, authenticate);
