import { useApiQuery } from '@/hooks/use-api-query';
import { getHeader } from '../api/header';

/** The header of the package `id` (none without a package), for the editor and the view page. */
export function usePackageHeader(id: string | undefined) {
  return useApiQuery(
    (signal) =>
      id
        ? getHeader(id, signal)
        : Promise.resolve({ ok: false as const, status: 0, error: { errorMessage: '' } }),
    [id],
  );
}
