import { RESOURCE_CONTRACT } from '../../shared/api/route-table/resources-contract';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';

/** route(id, fn) of the resources rows (shared/api/route-table/resources.ts). */
export const route = routesOf(RESOURCE_CONTRACT, authenticate);
