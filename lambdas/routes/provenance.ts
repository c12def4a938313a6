import { PROVENANCE_CONTRACT, PROVENANCE_ROUTES } from '../../shared/api/route-table/provenance';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';

/** route(id, fn) of the provenance rows (shared/api/route-table/provenance.ts). */
export const route = routesOf(PROVENANCE_ROUTES, PROVENANCE_CONTRACT, authenticate);
