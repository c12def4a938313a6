import { PACKAGE_PAGE_DEFAULT } from '@shared/api/paging';
import { cutView, type ListColumns } from '@shared/domain/list-columns';
import { filterRows, type SortValue, sortRows } from '@shared/domain/list-view';

/**
 * The mock's version of `?limit=&cursor=` (docs/decisions/050): without either, the whole list; with
 * them, one page and a `nextCursor` unless it is the last. The cursor is the next row's index here;
 * the real API's is an opaque DynamoDB key, and clients must not care.
 */
export function pageOf<T>(request: Request, rows: readonly T[]): { rows: readonly T[]; nextCursor?: string } {
  const params = new URL(request.url).searchParams;
  const limitText = params.get('limit');
  const cursor = params.get('cursor');
  if (limitText === null && cursor === null) return { rows };
  const limit = limitText === null ? PACKAGE_PAGE_DEFAULT : Number(limitText);
  const start = cursor === null ? 0 : Number(cursor.replace(/^i/, ''));
  const end = start + limit;
  return { rows: rows.slice(start, end), ...(end < rows.length ? { nextCursor: `i${end}` } : {}) };
}

/** The fields a package list view searches and sorts by (the server's rules: shared/domain/list-view.ts). */
interface ViewRow {
  name: string;
  resourceName: string;
  note: string;
  signed: boolean;
}

/**
 * The mock's version of a list view (decision 210): with `offset`, `search` or `sort`, one page of the
 * searched and sorted rows and the total of the matches, by the rules the server uses; else undefined.
 */
export function viewOf<T extends ViewRow>(
  request: Request,
  rows: readonly T[],
): { rows: readonly T[]; total: number } | undefined {
  const params = new URL(request.url).searchParams;
  const offset = params.get('offset');
  const search = params.get('search');
  const sort = params.get('sort');
  if (offset === null && search === null && sort === null) return undefined;
  const found = filterRows(rows, search ?? '', (p) => [p.name, p.resourceName, p.note]);
  const sorted = sort
    ? sortRows(
        found,
        { columnId: sort, direction: params.get('order') === 'desc' ? 'descending' : 'ascending' },
        (p, by) =>
          by === 'signed' ? (p.signed ? 'Yes' : 'No') : (p as unknown as Record<string, SortValue>)[by],
      )
    : found;
  const start = Number(offset ?? 0);
  const limit = Number(params.get('limit') ?? PACKAGE_PAGE_DEFAULT);
  return { rows: sorted.slice(start, start + limit), total: sorted.length };
}

/**
 * The mock's version of the resource, DCC and user list views (decision 221): with `offset`, `limit`,
 * `search` or `sort`, one page cut by the server's rules (shared/domain/list-columns.ts); else undefined.
 */
export function tableViewOf<T>(
  request: Request,
  rows: readonly T[],
  columns: ListColumns<T>,
): { rows: readonly T[]; total: number } | undefined {
  const params = new URL(request.url).searchParams;
  const [offset, limit, search, sort] = ['offset', 'limit', 'search', 'sort'].map((k) => params.get(k));
  if (offset === null && limit === null && search === null && sort === null) return undefined;
  return cutView(
    rows,
    {
      offset: Number(offset ?? 0),
      limit: Number(limit ?? PACKAGE_PAGE_DEFAULT),
      search: search ?? '',
      ...(sort
        ? { sort: { by: sort, direction: params.get('order') === 'desc' ? 'descending' : 'ascending' } }
        : {}),
    },
    columns,
  );
}
