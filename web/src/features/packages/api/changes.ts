import { packageChangesSchema } from '@shared/api/contracts/package-changes';
import type { PackageChanges } from '@shared/domain/package-changes';
import { type ApiResult, callApi, parseJsonText, readAnswer } from '@/lib/api-client/api-client';

export type { PackageChanges };

/**
 * GET /packages/{id}/changes: `changes` is JSON text; `message` says when there is nothing to
 * compare; `digest` goes back with a decision taken on this comparison (decision 266).
 */
export async function getChanges(
  id: string,
  signal?: AbortSignal,
): Promise<ApiResult<{ changes: PackageChanges | null; message?: string; digest?: string }>> {
  const result = await callApi(
    'packageChanges',
    { params: { id } },
    { signal, loader: false, handle: [404] },
  );
  return readAnswer(result, (data) => ({
    changes: parseJsonText(data.changes, packageChangesSchema, null),
    ...(data.message ? { message: data.message } : {}),
    ...(data.digest ? { digest: data.digest } : {}),
  }));
}
