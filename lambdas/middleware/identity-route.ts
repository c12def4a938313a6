import { IDENTITY_CONTRACT } from '../../shared/api/route-table/identity-contract';
import { routesOf } from './http';

/** route(id, fn) of the identity rows (shared/api/route-table/identity.ts). */
export const route = routesOf(IDENTITY_CONTRACT);
