import type { ListViewQuery } from '../../shared/api/contracts/list-view';
import { tableViewRequest } from '../../shared/api/contracts/list-view';
import { cutView, type ListColumns } from '../../shared/domain/list-columns';
import { wholeListText } from './whole-list';

/** A list call's answer: the list as JSON text, and with a paged view the count of its matches. */
export interface TableAnswer {
  text: string;
  total?: number;
}

/**
 * The resource, DCC and user lists' answer (decision 221). With `offset`, `limit`, `search` or `sort`: one
 * page of the list searched and sorted by the table's rules (shared/domain/list-columns.ts), and `total`, the
 * count of the matches, for "from-to of total". With none: the whole list, byte for byte as before, while
 * it fits Lambda's 6 MB; beyond, a 413 with the count and how to page.
 */
export function tableAnswer<T>(
  rows: readonly T[],
  query: ListViewQuery | undefined,
  columns: ListColumns<T>,
  noun: string,
): TableAnswer {
  const view = tableViewRequest(query);
  if (!view) return { text: wholeListText(rows, noun) };
  const page = cutView(rows, view, columns);
  return { text: JSON.stringify(page.rows), total: page.total };
}
