import { PACKAGE_CONTRACT, PACKAGE_ROUTES } from '../../shared/api/route-table/packages';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';

/** route(id, fn) of the packages rows (shared/api/route-table/packages.ts). */
export const route = routesOf(PACKAGE_ROUTES, PACKAGE_CONTRACT, authenticate);
