import { MAX_RESPONSE_BYTES } from '../../shared/api/runtime';
import { AppError } from '../../shared/domain/errors';

/** room left in a whole-list answer for the body's other bytes and the gateway's envelope */
export const WHOLE_LIST_BYTES = MAX_RESPONSE_BYTES - 64 * 1024;

/**
 * A whole list as the JSON text its answer carries (spec §3), while the answer fits in Lambda's 6 MB; beyond,
 * a 413 that says so, with the count, instead of the gateway's bare 502. These lists (resources,
 * DCCs, users) also answer a page at a time (decision 221: lambdas/services/table-view.ts).
 */
export function wholeListText(rows: readonly unknown[], noun: string): string {
  const text = JSON.stringify(rows);
  // the body as sent: JSON text inside JSON (each quote and backslash escaped again)
  if (Buffer.byteLength(JSON.stringify({ text }), 'utf8') > WHOLE_LIST_BYTES)
    throw new AppError(
      413,
      `This list has ${rows.length.toLocaleString('en-US')} ${noun}, more than one answer can carry (Lambda answers at most 6 MB). ` +
        'Ask for it a page at a time: ?offset=0&limit=25 (with search and sort, and the total).',
      { total: rows.length },
    );
  return text;
}
