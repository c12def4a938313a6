import { ADMIN_CONTRACT } from '../../shared/api/route-table/admin-contract';
import { routesOf } from './http';

/** route(id, fn) of the admin rows (shared/api/route-table/admin.ts). */
export const route = routesOf(ADMIN_CONTRACT);
