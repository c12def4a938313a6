import type { GeneratePackage, Package, PackageSource, UpdateDraft } from '@shared/api/contracts/packages';
import { packageSourceSchema } from '@shared/api/contracts/records';
import { z } from 'zod';
import { type ApiResult, callApi, parseJsonText, quietly, readAnswer } from '@/lib/api-client/api-client';
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

const withoutPackage = {
  ok: false as const,
  status: 500,
  error: { errorMessage: 'The server answered without the package' },
};

/** PATCH /packages/{id}: step 1 of the user's draft again; 409 name taken and 400 are the caller's. */
export async function updateDraft(id: string, body: UpdateDraft): Promise<ApiResult<Package>> {
  const result = await callApi('updateDraft', { params: { id }, body }, { handle: [400, 409] });
  const read = readAnswer(result, packageOf, [400, 409]);
  if (!read.ok) return read;
  return read.data ? { ...read, data: read.data } : withoutPackage;
}

export interface PackageSources {
  packages: PackageSource[];
  proposedId: string | null;
  freeName: string;
}

/**
 * GET /resources/{id}/package-sources: earlier packages to start from, the proposed one, a free name;
 * with `deviceId`, also the packages of that DCC device id (a new resource has no device of its own yet).
 */
export async function getPackageSources(
  resourceId: string,
  signal?: AbortSignal,
  deviceId?: string,
): Promise<ApiResult<PackageSources>> {
  const result = await callApi(
    'packageSources',
    { params: { id: resourceId }, query: { deviceId } },
    { signal, ...quietly() },
  );
  return readAnswer(result, (data) => ({
    packages: parseJsonText(data.packages, z.array(packageSourceSchema), []),
    proposedId: data.proposedId,
    freeName: data.freeName,
  }));
}
