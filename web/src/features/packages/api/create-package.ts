import type { GeneratePackage, Package } from '@shared/api/contracts/packages';
import { type ApiResult, callApi, readAnswer } from '@/lib/api-client/api-client';
import { packageOf } from './package-lists';

/** POST /resources/{id}/generate-package → 201 { package }; 409 name taken and 400 are the caller's to show. */
export async function generatePackage(
  resourceId: string,
  body: GeneratePackage,
): Promise<ApiResult<Package>> {
  const result = await callApi(
    'generatePackage',
    { params: { id: resourceId }, body },
    { handle: [400, 409] },
  );
  const read = readAnswer(result, packageOf, [400, 409]);
  if (!read.ok) return read;
  if (!read.data)
    return { ok: false, status: 500, error: { errorMessage: 'The server answered without the package' } };
  return { ...read, data: read.data };
}
