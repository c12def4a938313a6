import {
  Button,
  Flex,
  SearchField,
  SelectField,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Text,
} from '@aws-amplify/ui-react';
import {
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import {
  DEFAULT_PAGE_SIZE,
  filterRows,
  formatRange,
  nextSort,
  PAGE_SIZES,
  paginate,
  type SortState,
  type SortValue,
  serverSlice,
  sortRows,
  type TableView,
} from '@/lib/table/table-logic';

export interface Column<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** the value a column sorts by; a column without one is not sortable */
  sortValue?: (row: T) => SortValue;
}

/** A sortable column: its cell shows `cell(row)`, it sorts by `sortValue(row)` (by default the cell). */
export function sortableColumn<T>(
  id: string,
  header: string,
  cell: (row: T) => SortValue,
  sortValue: (row: T) => SortValue = cell,
): Column<T> {
  return { id, header, cell, sortValue };
}

/** A column of one field of the row, shown through `show` and sorted by the field's own value. */
export function fieldColumn<T, K extends keyof T & string>(
  field: K,
  header: string,
  show: (value: T[K]) => SortValue,
): Column<T> {
  return sortableColumn<T>(
    field,
    header,
    (row) => show(row[field]),
    (row) => row[field] as SortValue,
  );
}

export interface TableSelection<T> {
  mode: 'single' | 'multiple';
  selected: readonly string[];
  onChange: (ids: string[]) => void;
  /** accessible name of a row's checkbox or radio, e.g. the resource name */
  rowLabel: (row: T) => string;
}

export interface DataTableProps<T> {
  /** the table's accessible name */
  label: string;
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  /** the fields the search box looks in (spec §5, case-insensitive) */
  searchFields: (row: T) => readonly SortValue[];
  searchLabel?: string;
  selection?: TableSelection<T>;
  /** lists whose rows open something (the package lists) */
  onRowClick?: (row: T) => void;
  rowClassName?: (row: T) => string | undefined;
  emptyMessage?: string;
  loading?: boolean;
  /** what the empty table says while loading (default 'Loading…'), e.g. how many rows arrived so far */
  loadingText?: string;
  /** buttons beside the search box */
  actions?: ReactNode;
  /**
   * A list the server searches, sorts and pages (decision 210): `rows` is the page it answered for the
   * table's view, `total` its count of all matches; the table reports each change of its view (search,
   * sort, page, page size) to `onViewChange` and shows the same controls and range as for a whole list.
   */
  server?: { total: number; onViewChange: (view: TableView) => void };
}

/**
 * The one table of the app (spec §2.5, §4.8, §9): search, per-column sort none → ascending → descending
 * → none, page sizes 5/10/15/25 (5 by default) with 'from-to of total', previous/next, and single or
 * multiple selection by click. Give it a new `key` to reset it (tab switch: page 1, empty search).
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const {
    label,
    rows,
    columns,
    rowKey,
    searchFields,
    selection,
    onRowClick,
    rowClassName,
    loading,
    actions,
  } = props;
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortState | null>(null);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const rangeId = useId();

  const server = props.server;
  const sorted = useMemo(() => {
    if (server) return rows;
    const byId = new Map(columns.map((c) => [c.id, c]));
    return sortRows(filterRows(rows, query, searchFields), sort, (row, id) => byId.get(id)?.sortValue?.(row));
  }, [server, rows, query, searchFields, sort, columns]);
  const slice = server ? serverSlice(rows, page, pageSize, server.total) : paginate(sorted, page, pageSize);

  // a server-side list reads again whenever the view changes
  const onViewChange = useRef(server?.onViewChange);
  onViewChange.current = server?.onViewChange;
  useEffect(() => {
    onViewChange.current?.({ search: query, sort, page, pageSize });
  }, [query, sort, page, pageSize]);
  // rows deleted meanwhile can leave the page past the end: back to the last page there is
  const lastPage = slice.pageCount;
  useEffect(() => {
    if (server && !loading && server.total > 0 && page > lastPage) setPage(lastPage);
  }, [server, loading, page, lastPage]);

  const selected = new Set(selection?.selected ?? []);
  const toggle = (id: string) => {
    if (!selection) return;
    if (selection.mode === 'single') selection.onChange(selected.has(id) ? [] : [id]);
    else selection.onChange(selected.has(id) ? [...selected].filter((s) => s !== id) : [...selected, id]);
  };
  const pageIds = slice.rows.map(rowKey);
  const allOnPageSelected = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const togglePage = () => {
    if (!selection) return;
    if (allOnPageSelected) selection.onChange([...selected].filter((id) => !pageIds.includes(id)));
    else selection.onChange([...new Set([...selected, ...pageIds])]);
  };

  const onRowActivate = (row: T) => {
    if (onRowClick) onRowClick(row);
    // a click anywhere on a single-select row selects it, also when it is already selected
    // (decision 153); its radio clicked again is what clears the choice
    else if (selection?.mode === 'single') selection.onChange([rowKey(row)]);
    else toggle(rowKey(row));
  };
  const onRowMouse = (event: MouseEvent, row: T) => {
    // the checkbox or radio handles its own click
    if ((event.target as HTMLElement).closest('input, button, a, label')) return;
    onRowActivate(row);
  };
  const onRowKey = (event: KeyboardEvent, row: T) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onRowActivate(row);
    }
  };

  const clickable = Boolean(onRowClick || selection);
  const columnCount = columns.length + (selection ? 1 : 0);

  return (
    <div className="frp-data-table">
      <Flex
        justifyContent="space-between"
        alignItems="flex-end"
        wrap="wrap"
        gap="1rem"
        marginBottom="0.75rem"
      >
        <SearchField
          label={props.searchLabel ?? 'Search'}
          labelHidden={false}
          placeholder="Type to filter"
          hasSearchButton={false}
          hasSearchIcon
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setPage(1);
          }}
          onClear={() => {
            setQuery('');
            setPage(1);
          }}
          size="small"
          width="20rem"
          maxWidth="100%"
        />
        {actions ? (
          <Flex gap="0.5rem" wrap="wrap">
            {actions}
          </Flex>
        ) : null}
      </Flex>
      <div className="frp-table-wrap">
        <Table
          className="frp-table"
          highlightOnHover={clickable}
          size="small"
          aria-label={label}
          aria-describedby={rangeId}
        >
          <TableHead>
            <TableRow>
              {selection ? (
                <TableCell as="th" width="3rem" scope="col">
                  {selection.mode === 'multiple' ? (
                    <input
                      type="checkbox"
                      aria-label="Select all rows on this page"
                      checked={allOnPageSelected}
                      disabled={pageIds.length === 0}
                      onChange={togglePage}
                    />
                  ) : (
                    <span className="amplify-visually-hidden">Selected</span>
                  )}
                </TableCell>
              ) : null}
              {columns.map((column) => {
                const direction = sort?.columnId === column.id ? sort.direction : undefined;
                return (
                  <TableCell
                    as="th"
                    key={column.id}
                    scope="col"
                    aria-sort={column.sortValue ? (direction ?? 'none') : undefined}
                  >
                    {column.sortValue ? (
                      <button
                        type="button"
                        className="frp-sort"
                        onClick={() => setSort((s) => nextSort(s, column.id))}
                      >
                        {column.header}
                        <span aria-hidden="true">
                          {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '↕'}
                        </span>
                      </button>
                    ) : (
                      column.header
                    )}
                  </TableCell>
                );
              })}
            </TableRow>
          </TableHead>
          <TableBody>
            {slice.rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={columnCount} className="frp-table__empty">
                  {loading
                    ? (props.loadingText ?? 'Loading…')
                    : (props.emptyMessage ?? (query ? 'No rows match the search' : 'Nothing to show'))}
                </TableCell>
              </TableRow>
            ) : (
              slice.rows.map((row) => {
                const id = rowKey(row);
                const isSelected = selected.has(id);
                const classes = [
                  clickable ? 'frp-row--selectable' : '',
                  isSelected ? 'frp-row--selected' : '',
                  rowClassName?.(row) ?? '',
                ]
                  .filter(Boolean)
                  .join(' ');
                return (
                  <TableRow
                    key={id}
                    className={classes || undefined}
                    aria-selected={selection ? isSelected : undefined}
                    onClick={clickable ? (event) => onRowMouse(event, row) : undefined}
                    onKeyDown={onRowClick ? (event) => onRowKey(event, row) : undefined}
                    tabIndex={onRowClick ? 0 : undefined}
                  >
                    {selection ? (
                      <TableCell>
                        <input
                          type={selection.mode === 'single' ? 'radio' : 'checkbox'}
                          name={selection.mode === 'single' ? `${rangeId}-select` : undefined}
                          aria-label={`Select ${selection.rowLabel(row)}`}
                          checked={isSelected}
                          onChange={() => toggle(id)}
                          onClick={(event) => {
                            // a selected radio clicked again clears the selection
                            if (selection.mode === 'single' && isSelected) {
                              event.preventDefault();
                              selection.onChange([]);
                            }
                          }}
                        />
                      </TableCell>
                    ) : null}
                    {columns.map((column) => (
                      <TableCell key={column.id}>{column.cell(row)}</TableCell>
                    ))}
                  </TableRow>
                );
              })
            )}
          </TableBody>
        </Table>
      </div>
      <Flex justifyContent="flex-end" alignItems="center" wrap="wrap" gap="1rem" marginTop="0.75rem">
        <SelectField
          label="Rows per page"
          size="small"
          direction="row"
          alignItems="center"
          value={String(pageSize)}
          onChange={(event) => {
            setPageSize(Number(event.target.value));
            setPage(1);
          }}
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </SelectField>
        <Text id={rangeId} aria-live="polite" minWidth="6rem" textAlign="center">
          {formatRange(slice)}
        </Text>
        <Flex gap="0.25rem">
          <Button
            className="frp-pager"
            size="small"
            aria-label="Previous page"
            isDisabled={slice.page <= 1}
            onClick={() => setPage(slice.page - 1)}
          >
            <span aria-hidden="true">‹</span>
          </Button>
          <Button
            className="frp-pager"
            size="small"
            aria-label="Next page"
            isDisabled={slice.page >= slice.pageCount}
            onClick={() => setPage(slice.page + 1)}
          >
            <span aria-hidden="true">›</span>
          </Button>
        </Flex>
      </Flex>
    </div>
  );
}
