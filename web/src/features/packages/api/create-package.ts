import type { GeneratePackage, Package } from '@shared/api/contracts/packages';
import { type ApiResult, callApi } from '@/lib/api-client/api-client';
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
  if (!result.ok) return result;
  const pkg = packageOf(result.data);
  if (!pkg)
    return { ok: false, status: 500, error: { errorMessage: 'The server answered without the package' } };
  return { ...result, data: pkg };
}
