import type { Package, WaitingFor } from '@shared/api/contracts/packages';
import { packageSchema } from '@shared/api/contracts/records';
import { z } from 'zod';
import type { TableView } from '@/components/ui/data-table/table-logic';
import { getAllPages } from '@/lib/api-client/all-pages';
import {
  type ApiResult,
  api,
  callApi,
  parseJsonText,
  quietly,
  readAnswer,
} from '@/lib/api-client/api-client';

const packageList = z.array(packageSchema);

import { LIST_TABS, type ListKind, type ListTab, listApiPath } from '../utils/package-flow';

/**
 * A package list of spec §7 (`packages` is JSON text of a list). The package lists, which grow with
 * every package ever made, are read page by page; the approval and signing lists hold only what waits
 * for this user and come in one answer. `quiet`: a background refresh (decision 178), no loader, no popup.
 */
export async function getPackageList(
  kind: ListKind,
  tab: ListTab,
  signal?: AbortSignal,
  onProgress?: (rowsSoFar: number) => void,
  quiet = false,
): Promise<ApiResult<Package[]>> {
  if (kind === 'packages')
    return getAllPages(listApiPath(kind, tab), 'packages', packageSchema, { signal, onProgress, quiet });
  const options = { signal, ...quietly(quiet) };
  const result =
    kind === 'approve'
      ? await callApi(
          'listApprovalPackages',
          { params: { stage: tab === 'DELIVERY' ? 'deliver' : tab.toLowerCase() } },
          options,
        )
      : await callApi('listSigningPackages', { params: { stage: tab.toLowerCase() } }, options);
  return readAnswer(result, (d) => parseJsonText(d.packages, packageList, []), options.handle);
}

/** One page of a list as the table shows it, and the total of its matches (decision 210). */
export interface ListView<T> {
  rows: T[];
  total: number;
}

/**
 * One page of a list the server searches, sorts and pages (decision 210): `path` is the list's call (a
 * stage's, the delivery list, the admin list), `view` the table's search, sort, page and page size.
 */
export async function getListView<S extends z.ZodType>(
  path: string,
  /** the schema of one row (shared/api/contracts/records.ts) */
  schema: S,
  view: TableView,
  signal?: AbortSignal,
  quiet = false,
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
  const result = await api.get<{ packages?: unknown; total?: unknown }>(path, {
    signal,
    query,
    ...quietly(quiet),
  });
  return readAnswer(
    result,
    (d) => {
      const rows = parseJsonText(d.packages, z.array(schema), []);
      return { rows, total: typeof d.total === 'number' ? d.total : rows.length };
    },
    quietly(quiet).handle,
  );
}

/** The package list's page for a tab (Development, Release, Delivery). */
export const getPackageView = (tab: ListTab, view: TableView, signal?: AbortSignal, quiet = false) =>
  getListView(listApiPath('packages', tab), packageSchema, view, signal, quiet);

/** The package a decision or an edit answered with (`package` is JSON text), or null. */
export function packageOf(data: { package?: unknown }): Package | null {
  return parseJsonText(data.package, packageSchema, null);
}

/**
 * Issue 16: every tab of the approval or signing list at once (they hold only what waits for this user),
 * for the tab counts and the first tab with work. One failure fails the whole (the popups report it).
 */
export async function getWorkLists(
  kind: Exclude<ListKind, 'packages'>,
  signal?: AbortSignal,
): Promise<ApiResult<Partial<Record<ListTab, Package[]>>>> {
  const tabs = LIST_TABS[kind];
  const results = await Promise.all(tabs.map((tab) => getPackageList(kind, tab, signal)));
  const failed = results.find((r) => !r.ok);
  if (failed && !failed.ok) return failed;
  const data: Partial<Record<ListTab, Package[]>> = {};
  tabs.forEach((tab, i) => {
    const r = results[i];
    if (r?.ok) data[tab] = r.data;
  });
  return { ok: true, status: 200, data };
}

/** Issue 16: one package by id and what it waits for from this user (a mail's deep link). */
export async function getPackageDetails(
  id: string,
  signal?: AbortSignal,
  /** a background refresh (decision 178): no loader, no popup */
  quiet = false,
): Promise<ApiResult<{ pkg: Package | null; waitingFor: WaitingFor | null }>> {
  const result = await callApi(
    'packageDetails',
    { params: { id } },
    { signal, ...(quiet ? quietly() : { handle: [400, 404] }) },
  );
  return readAnswer(
    result,
    (d) => ({ pkg: packageOf(d), waitingFor: d.waitingFor ?? null }),
    quiet ? quietly().handle : [400, 404],
  );
}
