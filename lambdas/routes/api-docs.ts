import { API_DOCS_CONTRACT, API_DOCS_ROUTES } from '../../shared/api/route-table/api-docs';
import { authenticate } from '../composition-http';
import { routesOf } from '../middleware/http';

/** route(id, fn) of the api-docs rows (shared/api/route-table/api-docs.ts). */
export const route = routesOf(API_DOCS_ROUTES, API_DOCS_CONTRACT, authenticate);
