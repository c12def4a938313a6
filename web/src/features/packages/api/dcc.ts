import type { CreateDcc, Dcc } from '@shared/api/contracts/dcc';
import type { Package } from '@shared/api/contracts/packages';
import { dccSchema } from '@shared/api/contracts/records';
import { type ApiResult, callApi, readAnswer, routePath } from '@/lib/api-client/api-client';
import { getListView, type ListView } from '@/lib/api-client/list-view';
import { getWholeList } from '@/lib/api-client/whole-list';
import type { TableView } from '@/lib/table/table-logic';
import { packageOf } from './package-lists';

/** GET /dcc one page at a time (decision 221): `dcc` is JSON text of the page, `total` its matches. */
export function getDccView(view: TableView, signal?: AbortSignal): Promise<ApiResult<ListView<Dcc>>> {
  return getListView(routePath('listDcc'), dccSchema, view, signal, false, 'dcc');
}

/** the distinct DCC device ids of the whole DCC list (GET /dcc, no paging), sorted; quiet. */
export async function getDeviceIds(signal?: AbortSignal): Promise<ApiResult<string[]>> {
  const result = await getWholeList(routePath('listDcc'), 'dcc', dccSchema, { signal, quiet: true });
  return readAnswer(result, (rows) =>
    [...new Set(rows.map((c) => c.deviceId))].sort((a, b) => a.localeCompare(b)),
  );
}

/** POST /dcc → 201 { dccUuid, dcc }; a 400 carries the spec's validation message. */
export async function createDcc(body: CreateDcc): Promise<ApiResult<{ id: string }>> {
  const result = await callApi('createDcc', { body }, { handle: [400] });
  if (!result.ok) return result;
  return { ...result, data: { id: result.data.dccUuid ?? '' } };
}

/** POST /packages/{id}/dcc/{dccId} → { package } (DRAFT packages, initiator only). */
export async function attachDcc(packageId: string, dccId: string): Promise<ApiResult<Package | null>> {
  const result = await callApi(
    'attachDcc',
    { params: { id: packageId, dccId } },
    { handle: [403, 404, 409] },
  );
  return readAnswer(result, packageOf);
}
