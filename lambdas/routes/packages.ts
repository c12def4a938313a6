import { PACKAGE_CONTRACT } from '../../shared/api/route-table/packages-contract';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';

/** route(id, fn) of the packages rows (shared/api/route-table/packages.ts). */
export const route = routesOf(PACKAGE_CONTRACT, authenticate);
