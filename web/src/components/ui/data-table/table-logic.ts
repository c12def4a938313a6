/** Pure rules of the one table component (spec §2.5, §4.8, §5 search, §9 page sizes). */

export const PAGE_SIZES = [5, 10, 15, 25] as const;
export const DEFAULT_PAGE_SIZE = 5;

export type SortDirection = 'ascending' | 'descending';
export interface SortState {
  columnId: string;
  direction: SortDirection;
}

export type SortValue = string | number | boolean | null | undefined;

/** Case-insensitive substring search over the fields a list names (spec §5). */
export function filterRows<T>(
  rows: readonly T[],
  query: string,
  fields: (row: T) => readonly SortValue[],
): T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...rows];
  return rows.filter((row) =>
    fields(row).some(
      (value) => value !== null && value !== undefined && String(value).toLowerCase().includes(needle),
    ),
  );
}

/** Spec §4.8: per column none → ascending → descending → none. */
export function nextSort(current: SortState | null, columnId: string): SortState | null {
  if (!current || current.columnId !== columnId) return { columnId, direction: 'ascending' };
  if (current.direction === 'ascending') return { columnId, direction: 'descending' };
  return null;
}

function compare(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === null || a === undefined || a === '') return 1;
  if (b === null || b === undefined || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a ? -1 : 1;
  return String(a).localeCompare(String(b), undefined, { sensitivity: 'base', numeric: true });
}

/** A stable sort; with no sort the rows keep the order the server gave. */
export function sortRows<T>(
  rows: readonly T[],
  sort: SortState | null,
  value: (row: T, columnId: string) => SortValue,
): T[] {
  if (!sort) return [...rows];
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort(
      (x, y) => sign * compare(value(x.row, sort.columnId), value(y.row, sort.columnId)) || x.index - y.index,
    )
    .map(({ row }) => row);
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
