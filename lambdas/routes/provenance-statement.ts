import { PROVENANCE_STATEMENT_CONTRACT } from '../../shared/api/route-table/provenance-statement-contract';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';

/** route(id, fn) of the provenance statement row (shared/api/route-table/provenance-statement.ts). */
export const route = routesOf(PROVENANCE_STATEMENT_CONTRACT, authenticate);
