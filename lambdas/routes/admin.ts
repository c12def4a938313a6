import { ADMIN_CONTRACT } from '../../shared/api/route-table/admin-contract';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';

/** route(id, fn) of the admin rows (shared/api/route-table/admin.ts). */
export const route = routesOf(ADMIN_CONTRACT, authenticate);
