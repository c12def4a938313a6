import { PACKAGE_PAGE_DEFAULT } from '@shared/api/paging';

/**
 * The mock's version of `?limit=&cursor=` (docs/decisions/050): without either, the whole list; with
 * them, one page and a `nextCursor` unless it is the last. The cursor is the next row's index here;
 * the real API's is an opaque DynamoDB key, and clients must not care.
 */
export function pageOf<T>(request: Request, rows: readonly T[]): { rows: readonly T[]; nextCursor?: string } {
  const params = new URL(request.url).searchParams;
  const limitText = params.get('limit');
  const cursor = params.get('cursor');
  if (limitText === null && cursor === null) return { rows };
  const limit = limitText === null ? PACKAGE_PAGE_DEFAULT : Number(limitText);
  const start = cursor === null ? 0 : Number(cursor.replace(/^i/, ''));
  const end = start + limit;
  return { rows: rows.slice(start, end), ...(end < rows.length ? { nextCursor: `i${end}` } : {}) };
}
