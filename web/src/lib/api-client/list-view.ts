import type { TableView } from '@/components/ui/data-table/table-logic';
import { type ApiResult, api, parseJsonText, quietly } from './api-client';

/** One page of a list as the table shows it, and the total of its matches (decisions 210, 221). */
export interface ListView<T> {
  rows: T[];
  total: number;
}

/**
 * One page of a list the server searches, sorts and pages (decisions 210, 221): `path` is the list's call,
 * `field` the answer's field holding the page as JSON text, `view` the table's search, sort, page and size.
 */
export async function getListView<T>(
  path: string,
  view: TableView,
  signal?: AbortSignal,
  quiet = false,
  field = 'packages',
): Promise<ApiResult<ListView<T>>> {
  const query: Record<string, string> = {
    offset: String((view.page - 1) * view.pageSize),
    limit: String(view.pageSize),
  };
  if (view.search.trim()) query.search = view.search.trim();
  if (view.sort) {
    query.sort = view.sort.columnId;
    query.order = view.sort.direction === 'descending' ? 'desc' : 'asc';
  }
  const result = await api.get<Record<string, unknown>>(path, { signal, query, ...quietly(quiet) });
  if (!result.ok) return result;
  const rows = parseJsonText<T[]>(result.data[field], []);
  const total = typeof result.data.total === 'number' ? result.data.total : rows.length;
  return { ...result, data: { rows, total } };
}
