import { AUDIT_CONTRACT, AUDIT_ROUTES } from '../../shared/api/route-table/audit';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';

/** route(id, fn) of the audit rows (shared/api/route-table/audit.ts). */
export const route = routesOf(AUDIT_ROUTES, AUDIT_CONTRACT, authenticate);
