import { z } from 'zod';
import type { TableView } from '@/lib/table/table-logic';
import { type ApiResult, api, parseJsonText, quietly, readAnswer } from './api-client';

/** One page of a list as the table shows it, and the total of its matches (decisions 210, 221). */
export interface ListView<T> {
  rows: T[];
  total: number;
}

/**
 * One page of a list the server searches, sorts and pages (decisions 210, 221): `path` is the list's call,
 * `schema` the schema of one row (shared/api/contracts/records.ts, decision 238), `field` the answer's field
 * holding the page as JSON text, `view` the table's search, sort, page and page size.
 */
export async function getListView<S extends z.ZodType>(
  path: string,
  schema: S,
  view: TableView,
  signal?: AbortSignal,
  quiet = false,
  field = 'packages',
): Promise<ApiResult<ListView<z.output<S>>>> {
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
  return readAnswer(
    result,
    (d) => {
      const rows = parseJsonText(d[field], z.array(schema), []);
      return { rows, total: typeof d.total === 'number' ? d.total : rows.length };
    },
    quietly(quiet).handle,
  );
}
