import { PROVENANCE_CONTRACT } from '../../shared/api/route-table/provenance-contract';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';

/** route(id, fn) of the provenance rows (shared/api/route-table/provenance.ts). */
export const route = routesOf(PROVENANCE_CONTRACT, authenticate);
