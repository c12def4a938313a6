import * as z from 'zod';
import { BadRequestError } from '../../domain/errors';
import { PACKAGE_PAGE_DEFAULT, PACKAGE_PAGE_MAX } from '../paging';

/**
 * The paged view of the resource, DCC and user lists (decision 221), as the package lists' (decision 210):
 * `offset`, `limit`, `search`, `sort` (the list's sortable columns), `order`. Any of them asks for one page
 * and its `total`; none, the whole list as the spec's clients expect.
 */
export function listViewQuerySchema<const S extends readonly [string, ...string[]]>(sorts: S) {
  const limitError = `limit must be a whole number from 1 to ${PACKAGE_PAGE_MAX}`;
  return z.object({
    offset: z
      .string()
      .regex(/^\d{1,7}$/, { error: 'offset must be a whole number from 0' })
      .transform(Number)
      .optional(),
    limit: z
      .string()
      .regex(/^\d{1,4}$/, { error: limitError })
      .transform(Number)
      .pipe(z.number().min(1, { error: limitError }).max(PACKAGE_PAGE_MAX, { error: limitError }))
      .optional(),
    search: z.string().max(200, { error: 'search must be at most 200 characters' }).optional(),
    sort: z.enum(sorts, { error: `sort must be one of ${sorts.join(', ')}` }).optional(),
    order: z.enum(['asc', 'desc'], { error: "order must be 'asc' or 'desc'" }).optional(),
  });
}

export interface ListViewQuery {
  offset?: number;
  limit?: number;
  search?: string;
  sort?: string;
  order?: 'asc' | 'desc';
}

/** One page of a list view; undefined when the call sends no paging parameter (the whole list). */
export interface TableViewRequest {
  offset: number;
  limit: number;
  search: string;
  sort?: { by: string; direction: 'ascending' | 'descending' };
}

export function tableViewRequest(q: ListViewQuery | undefined): TableViewRequest | undefined {
  if (!q) return undefined;
  const { offset, limit, search, sort, order } = q;
  if ([offset, limit, search, sort, order].every((v) => v === undefined)) return undefined;
  if (order !== undefined && sort === undefined) throw new BadRequestError('order needs sort');
  return {
    offset: offset ?? 0,
    limit: limit ?? PACKAGE_PAGE_DEFAULT,
    search: search ?? '',
    ...(sort ? { sort: { by: sort, direction: order === 'desc' ? 'descending' : 'ascending' } } : {}),
  };
}

/** The sortable columns each list's `sort` takes (shared/domain/list-columns.ts sorts them). */
export const RESOURCE_SORTS = ['name', 'uploadTime', 'uploadedBy', 'modelName', 'modelVersion'] as const;
export const ADMIN_RESOURCE_SORTS = ['name', 'type', 'stage', 'uploadedBy'] as const;
export const DCC_SORTS = ['deviceId', 'telemetryType', 'deviceLimit', 'messageLimit'] as const;
export const USER_SORTS = ['name', 'email', 'userRole', 'roleStatus'] as const;

export const resourceListQuerySchema = listViewQuerySchema(RESOURCE_SORTS);
export const adminResourceListQuerySchema = listViewQuerySchema(ADMIN_RESOURCE_SORTS);
export const dccListQuerySchema = listViewQuerySchema(DCC_SORTS);
export const userListQuerySchema = listViewQuerySchema(USER_SORTS);
