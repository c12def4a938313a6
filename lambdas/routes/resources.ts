import { RESOURCE_CONTRACT, RESOURCE_ROUTES } from '../../shared/api/route-table/resources';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';

/** route(id, fn) of the resources rows (shared/api/route-table/resources.ts). */
export const route = routesOf(RESOURCE_ROUTES, RESOURCE_CONTRACT, authenticate);
