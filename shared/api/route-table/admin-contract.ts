import { idListSchema } from '../contracts/common';
import { adminResourceListQuerySchema, dccListQuerySchema } from '../contracts/list-view';
import { adminListPageQuerySchema, packageDeletionSchema } from '../contracts/packages';
import type { ADMIN_ROUTES } from './admin';
import type { RouteRequest } from './types';

/**
 * Requests of the admin rows (the same lists as the other areas, all of them); their answers are in
 * admin-responses.ts, which handlers import only as types.
 */
export const ADMIN_CONTRACT = {
  adminListPackages: { query: adminListPageQuerySchema },
  adminDeletePackages: { body: packageDeletionSchema },
  adminListDcc: { query: dccListQuerySchema },
  adminDeleteDcc: { body: idListSchema },
  adminListResources: { query: adminResourceListQuerySchema },
  adminDeleteResources: { body: idListSchema },
} as const satisfies { [Id in (typeof ADMIN_ROUTES)[number]['id']]: RouteRequest };
