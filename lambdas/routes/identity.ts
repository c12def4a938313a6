import { IDENTITY_CONTRACT } from '../../shared/api/route-table/identity-contract';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';

/** route(id, fn) of the identity rows (shared/api/route-table/identity.ts). */
export const route = routesOf(IDENTITY_CONTRACT, authenticate);
