import { PACKAGE_PAGE_MAX } from '@shared/api/paging';
import { z } from 'zod';
import { loader } from '@/lib/loader/loader-store';
import { type ApiResult, api, parseJsonText, readAnswer, reportFailure } from './api-client';

/** far beyond any real list (a million rows at the largest page); stops a server that never ends */
const MAX_PAGES = 1000;

/**
 * A whole list from a paged list call (`?limit=&cursor=`, docs/decisions/050): page after page until
 * the server sends no `nextCursor`. Screens keep their client-side search, sort and paging over the
 * whole list, and no single answer has to carry it (Lambda answers at most 6 MB). `field` is the JSON
 * text of each page's rows. A failed page fails the whole load (the popups already showed it): a list
 * with a silent hole in it would be worse than no list.
 */
export async function getAllPages<S extends z.ZodType, T extends z.output<S> = z.output<S>>(
  path: string,
  field: string,
  /** the schema of one row (shared/api/contracts/records.ts) */
  schema: S,
  options: {
    signal?: AbortSignal;
    pageSize?: number;
    /** called after each page that is not the last, with the rows so far */
    onProgress?: (rowsSoFar: number) => void;
    /** a background refresh (decision 178): no loader overlay, no popup; the caller handles failures */
    quiet?: boolean;
  } = {},
): Promise<ApiResult<T[]>> {
  const rows: T[] = [];
  let cursor: string | undefined;
  // one loader for the whole walk: the overlay does not flicker off and on between pages
  const done = options.quiet ? () => {} : loader.start();
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const query: Record<string, string> = { limit: String(options.pageSize ?? PACKAGE_PAGE_MAX) };
      if (cursor) query.cursor = cursor;
      const result = await api.get<Record<string, unknown>>(path, {
        signal: options.signal,
        query,
        loader: false,
        ...(options.quiet ? { handle: 'all' as const } : {}),
      });
      const page = readAnswer(
        result,
        (d) => parseJsonText(d[field], z.array(schema), []) as T[],
        options.quiet ? 'all' : undefined,
      );
      if (!page.ok || !result.ok) return page.ok ? (result as ApiResult<T[]>) : page;
      rows.push(...page.data);
      cursor = typeof result.data.nextCursor === 'string' ? result.data.nextCursor : undefined;
      if (!cursor) return { ...result, data: rows };
      options.onProgress?.(rows.length);
    }
  } finally {
    done();
  }
  const endless: ApiResult<T[]> = {
    ok: false,
    status: 0,
    error: { errorMessage: `The list did not end after ${MAX_PAGES} pages; it was not loaded.` },
  };
  reportFailure(endless, options.quiet ? 'all' : undefined);
  return endless;
}
