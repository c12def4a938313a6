import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';
import type { ApiResult } from '@/lib/api-client/api-client';
import type { ListView } from '@/lib/api-client/list-view';
import { INITIAL_VIEW, sameView, type TableView } from '@/lib/table/table-logic';
import { type ApiQuery, useApiQuery } from './use-api-query';

export interface ServerView<T> {
  /** the table's search, sort, page and size the shown page was read for */
  view: TableView;
  /** give to DataTable's `server.onViewChange` */
  onViewChange: (next: TableView) => void;
  /** back to page 1, no search, no sort (a tab switch; give the table a new `key` too) */
  reset: () => void;
  /** the page shown: a new page keeps the last one on screen until it arrives */
  current: ListView<T> | undefined;
  query: ApiQuery<ListView<T>>;
  /**
   * Each row of every page read since the list opened, by id: what a selection made on an earlier page
   * still needs (the row to attach, the rows the delete dialog names). Rows of a later read replace them.
   */
  seen: ReadonlyMap<string, T>;
}

/**
 * A table whose list the server searches, sorts and pages (decisions 210, 221): each change of the table's
 * view reads that one page; `deps` are what else the list depends on (a tab, a stage). `load` gets
 * `background` true for a quiet refresh (decision 178).
 */
export function useServerView<T extends { id: string }>(
  load: (view: TableView, signal: AbortSignal, background: boolean) => Promise<ApiResult<ListView<T>>>,
  deps: DependencyList,
  options: { refreshWhile?: (rows: T[]) => boolean } = {},
): ServerView<T> {
  const [view, setView] = useState<TableView>(INITIAL_VIEW);
  const onViewChange = useCallback((next: TableView) => setView((v) => (sameView(v, next) ? v : next)), []);
  const { refreshWhile } = options;
  const query = useApiQuery<ListView<T>>(
    (signal, background) => load(view, signal, background),
    [...deps, view],
    {
      refreshWhile: refreshWhile ? (d) => refreshWhile(d.rows) : undefined,
    },
  );
  const [shown, setShown] = useState<ListView<T> | undefined>(undefined);
  useEffect(() => {
    if (query.data) setShown(query.data);
    else if (query.failed) setShown(undefined);
  }, [query.data, query.failed]);
  const seen = useRef(new Map<string, T>()).current;
  for (const row of query.data?.rows ?? []) seen.set(row.id, row);
  const reset = useCallback(() => {
    setShown(undefined);
    setView(INITIAL_VIEW);
  }, []);
  return {
    view,
    onViewChange,
    reset,
    current: query.data ?? (query.loading ? shown : undefined),
    query,
    seen,
  };
}
