import type { Package } from '@shared/api/contracts/packages';
import { getAllPages } from '@/lib/api-client/all-pages';
import { type ApiResult, callApi, parseJsonText } from '@/lib/api-client/api-client';
import { type ListKind, type ListTab, listApiPath } from '../utils/package-flow';

/**
 * A package list of spec §7 (`packages` is JSON text of a list). The package lists, which grow with
 * every package ever made, are read page by page; the approval and signing lists hold only what waits
 * for this user and come in one answer.
 */
export async function getPackageList(
  kind: ListKind,
  tab: ListTab,
  signal?: AbortSignal,
  onProgress?: (rowsSoFar: number) => void,
): Promise<ApiResult<Package[]>> {
  if (kind === 'packages')
    return getAllPages<Package>(listApiPath(kind, tab), 'packages', { signal, onProgress });
  const result =
    kind === 'approve'
      ? await callApi(
          'listApprovalPackages',
          { params: { stage: tab === 'DELIVERY' ? 'deliver' : tab.toLowerCase() } },
          { signal },
        )
      : await callApi('listSigningPackages', { params: { stage: tab.toLowerCase() } }, { signal });
  if (!result.ok) return result;
  return { ...result, data: parseJsonText<Package[]>(result.data.packages, []) };
}

/** The package a decision or an edit answered with (`package` is JSON text), or null. */
export function packageOf(data: { package?: unknown }): Package | null {
  return parseJsonText<Package | null>(data.package, null);
}
