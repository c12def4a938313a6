import { resourceSchema } from '@shared/api/contracts/records';
import type { Resource, ResourceType, Stage } from '@shared/api/contracts/resources';
import { type ApiResult, routePath } from '@/lib/api-client/api-client';
import { getListView, type ListView } from '@/lib/api-client/list-view';
import type { TableView } from '@/lib/table/table-logic';

/**
 * GET /resources/{patch|model}/{dev|release} one page at a time (decision 221): the server searches
 * (name, upload time), sorts and pages; `resources` is JSON text of the page, `total` its matches.
 */
export function getResourceView(
  type: ResourceType,
  stage: Stage,
  view: TableView,
  signal?: AbortSignal,
): Promise<ApiResult<ListView<Resource>>> {
  const path = routePath(type === 'MODEL' ? 'listModels' : 'listPatches', { stage: stage.toLowerCase() });
  return getListView(path, resourceSchema, view, signal, false, 'resources');
}
