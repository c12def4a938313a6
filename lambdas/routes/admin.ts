import { ADMIN_CONTRACT, ADMIN_ROUTES } from '../../shared/api/route-table/admin';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';

/** route(id, fn) of the admin rows (shared/api/route-table/admin.ts). */
export const route = routesOf(ADMIN_ROUTES, ADMIN_CONTRACT, authenticate);
