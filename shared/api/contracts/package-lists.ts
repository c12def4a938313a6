import * as z from 'zod';
import { BadRequestError } from '../../domain/errors';
import { PACKAGE_PAGE_DEFAULT, PACKAGE_PAGE_MAX } from '../paging';

/** The package lists' queries: cursor paging and the list view (search, sort, offset, total). */

export { PACKAGE_PAGE_DEFAULT, PACKAGE_PAGE_MAX } from '../paging';

/** The columns a package list view sorts by (spec §2.5, §2.6; the admin table's too). */
export const PACKAGE_SORTS = [
  'name',
  'resourceName',
  'resourceType',
  'resourceStage',
  'signed',
  'note',
] as const;
export type PackageSort = (typeof PACKAGE_SORTS)[number];
/** The admin package table's columns sort by these, its State column too (decision 260). */
export const ADMIN_PACKAGE_SORTS = [...PACKAGE_SORTS, 'status'] as const;
export type AdminPackageSort = (typeof ADMIN_PACKAGE_SORTS)[number];

/**
 * Optional paging of the package lists (docs/decisions/050-package-list-paging.md). Without `limit` and
 * `cursor` a list call answers the whole list as before; with either, one page and, unless it is the
 * last, a `nextCursor` to pass back as `cursor`.
 */
export const listPageQuerySchema = z.object({
  limit: z
    .string()
    .regex(/^\d{1,4}$/, { error: `limit must be a whole number from 1 to ${PACKAGE_PAGE_MAX}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { error: `limit must be a whole number from 1 to ${PACKAGE_PAGE_MAX}` })
        .max(PACKAGE_PAGE_MAX, { error: `limit must be a whole number from 1 to ${PACKAGE_PAGE_MAX}` }),
    )
    .optional(),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,2048}$/, { error: 'cursor is not a cursor this list returned' })
    .optional(),
  // the list view (decision 210): one page of the searched and sorted list, with its total
  offset: z
    .string()
    .regex(/^\d{1,7}$/, { error: 'offset must be a whole number from 0' })
    .transform(Number)
    .optional(),
  search: z.string().max(200, { error: 'search must be at most 200 characters' }).optional(),
  sort: z.enum(PACKAGE_SORTS, { error: `sort must be one of ${PACKAGE_SORTS.join(', ')}` }).optional(),
  order: z.enum(['asc', 'desc'], { error: "order must be 'asc' or 'desc'" }).optional(),
  // the home page's "your drafts": only the caller's DRAFTs of the stage, read by an index
  drafts: z.enum(['mine'], { error: "drafts must be 'mine'" }).optional(),
});
/** GET /admin/packages: the same, and its table's State column sorts too (decision 260). */
export const adminListPageQuerySchema = listPageQuerySchema.extend({
  sort: z
    .enum(ADMIN_PACKAGE_SORTS, { error: `sort must be one of ${ADMIN_PACKAGE_SORTS.join(', ')}` })
    .optional(),
});
export type ListPageQuery = z.infer<typeof adminListPageQuerySchema>;

/** One page of a list view: its rows from `offset`, searched and sorted as the table does (decision 210). */
export interface ListViewRequest {
  offset: number;
  limit: number;
  search: string;
  sort?: { by: AdminPackageSort; direction: 'ascending' | 'descending' };
}

/** A list-view request, or undefined when the call asks for no view (the whole list, or cursor pages). */
export function listViewRequest(q: ListPageQuery | undefined): ListViewRequest | undefined {
  if (!q || (q.offset === undefined && q.search === undefined && q.sort === undefined)) return undefined;
  if (q.cursor !== undefined)
    throw new BadRequestError('cursor cannot be combined with offset, search or sort');
  if (q.order !== undefined && q.sort === undefined) throw new BadRequestError('order needs sort');
  return {
    offset: q.offset ?? 0,
    limit: q.limit ?? PACKAGE_PAGE_DEFAULT,
    search: q.search ?? '',
    ...(q.sort ? { sort: { by: q.sort, direction: q.order === 'desc' ? 'descending' : 'ascending' } } : {}),
  };
}

/** A page request, or undefined for the whole list (no paging parameter sent). */
export function pageRequest(q: ListPageQuery | undefined): { limit: number; cursor?: string } | undefined {
  if (q?.limit === undefined && q?.cursor === undefined) return undefined;
  return { limit: q.limit ?? PACKAGE_PAGE_DEFAULT, ...(q.cursor ? { cursor: q.cursor } : {}) };
}
