import { z } from 'zod';
import { type ApiResult, api, parseJsonText, quietly, readAnswer } from './api-client';

/**
 * A list call answered whole in one GET (no `limit`): `field` is the JSON text of the rows, each checked
 * with `schema` (shared/api/contracts/records.ts). `quiet`: a background refresh (decision 178), no
 * loader and no popup; the caller handles a failure. Paged lists: getAllPages or getListView.
 */
export async function getWholeList<S extends z.ZodType, T extends z.output<S> = z.output<S>>(
  path: string,
  field: string,
  schema: S,
  options: { signal?: AbortSignal; quiet?: boolean } = {},
): Promise<ApiResult<T[]>> {
  const quiet = quietly(options.quiet ?? false);
  const result = await api.get<Record<string, unknown>>(path, { signal: options.signal, ...quiet });
  return readAnswer(result, (d) => parseJsonText(d[field], z.array(schema), []) as T[], quiet.handle);
}
