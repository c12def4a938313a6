/** Pure rules of the one table component (spec §2.5, §4.8, §5 search, §9 page sizes). */

export const PAGE_SIZES = [5, 10, 15, 25] as const;
export const DEFAULT_PAGE_SIZE = 5;

export {
  compareValues,
  filterRows,
  type SortDirection,
  type SortState,
  type SortValue,
  sortRows,
} from '@shared/domain/list-view';

import type { SortState } from '@shared/domain/list-view';

/** Spec §4.8: per column none → ascending → descending → none. */
export function nextSort(current: SortState | null, columnId: string): SortState | null {
  if (!current || current.columnId !== columnId) return { columnId, direction: 'ascending' };
  if (current.direction === 'ascending') return { columnId, direction: 'descending' };
  return null;
}

export interface PageSlice<T> {
  rows: T[];
  /** 1-based page actually shown (clamped) */
  page: number;
  pageCount: number;
  /** 1-based first row index, 0 when there are no rows */
  from: number;
  to: number;
  total: number;
}

export function paginate<T>(rows: readonly T[], page: number, pageSize: number): PageSlice<T> {
  const total = rows.length;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(Math.max(1, page), pageCount);
  const start = (current - 1) * pageSize;
  const slice = rows.slice(start, start + pageSize);
  return {
    rows: slice,
    page: current,
    pageCount,
    from: total === 0 ? 0 : start + 1,
    to: total === 0 ? 0 : start + slice.length,
    total,
  };
}

/** What the table shows: its search text, sort, page and page size (a server-side list reads by it). */
export interface TableView {
  search: string;
  sort: SortState | null;
  page: number;
  pageSize: number;
}
export const INITIAL_VIEW: TableView = { search: '', sort: null, page: 1, pageSize: DEFAULT_PAGE_SIZE };

export const sameView = (a: TableView, b: TableView): boolean =>
  a.search === b.search &&
  a.page === b.page &&
  a.pageSize === b.pageSize &&
  a.sort?.columnId === b.sort?.columnId &&
  a.sort?.direction === b.sort?.direction;

/** The page a server cut (decision 210): `rows` are that page, `total` the count of every match. */
export function serverSlice<T>(
  rows: readonly T[],
  page: number,
  pageSize: number,
  total: number,
): PageSlice<T> {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const start = (page - 1) * pageSize;
  const shown = rows.slice(0, pageSize);
  return {
    rows: shown,
    page,
    pageCount,
    from: total === 0 || shown.length === 0 ? 0 : start + 1,
    to: total === 0 || shown.length === 0 ? 0 : start + shown.length,
    total,
  };
}

/** Spec §2.5: 'from-to of total', starting at 0 when there are no rows. */
export function formatRange(slice: Pick<PageSlice<unknown>, 'from' | 'to' | 'total'>): string {
  return `${slice.from}-${slice.to} of ${slice.total}`;
}
