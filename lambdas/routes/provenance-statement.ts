import {
  PROVENANCE_STATEMENT_CONTRACT,
  PROVENANCE_STATEMENT_ROUTES,
} from '../../shared/api/route-table/provenance-statement';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';

/** route(id, fn) of the provenance statement row (shared/api/route-table/provenance-statement.ts). */
export const route = routesOf(PROVENANCE_STATEMENT_ROUTES, PROVENANCE_STATEMENT_CONTRACT, authenticate);
