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

/** Spec §2.5: 'from-to of total', starting at 0 when there are no rows. */
export function formatRange(slice: Pick<PageSlice<unknown>, 'from' | 'to' | 'total'>): string {
  return `${slice.from}-${slice.to} of ${slice.total}`;
}
