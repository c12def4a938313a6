import { API_DOCS_CONTRACT } from '../../shared/api/route-table/api-docs-contract';
import { routesOf } from './http';

/** route(id, fn) of the api-docs rows (shared/api/route-table/api-docs.ts). */
export const route = routesOf(API_DOCS_CONTRACT);
