import type { Package, WaitingFor } from '@shared/api/contracts/packages';
import { packageSchema } from '@shared/api/contracts/records';
import { z } from 'zod';
import { getAllPages } from '@/lib/api-client/all-pages';
import { type ApiResult, callApi, parseJsonText, quietly, readAnswer } from '@/lib/api-client/api-client';
import { getListView } from '@/lib/api-client/list-view';
import type { TableView } from '@/lib/table/table-logic';

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

export { getListView, type ListView } from '@/lib/api-client/list-view';

/** The package list's page for a tab (Development, Release, Delivery). */
export const getPackageView = (tab: ListTab, view: TableView, signal?: AbortSignal, quiet = false) =>
  getListView(listApiPath('packages', tab), packageSchema, view, signal, quiet);

/** The package a decision or an edit answered with (`package` is JSON text), or null. */
export function packageOf(data: { package?: unknown }): Package | null {
  return parseJsonText(data.package, packageSchema, null);
}

/**
 * every tab of the approval or signing list at once (they hold only what waits for this user),
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

/** one package by id and what it waits for from this user (a mail's deep link). */
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
