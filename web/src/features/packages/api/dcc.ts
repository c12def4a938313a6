import type { CreateDcc, Dcc } from '@shared/api/contracts/dcc';
import type { Package } from '@shared/api/contracts/packages';
import { dccSchema } from '@shared/api/contracts/records';
import { z } from 'zod';
import { type ApiResult, callApi, parseJsonText, readAnswer } from '@/lib/api-client/api-client';
import { packageOf } from './package-lists';

/** GET /dcc: `dcc` is JSON text of the list. */
export async function getDccs(signal?: AbortSignal): Promise<ApiResult<Dcc[]>> {
  const result = await callApi('listDcc', {}, { signal });
  return readAnswer(result, (d) => parseJsonText(d.dcc, z.array(dccSchema), []));
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
