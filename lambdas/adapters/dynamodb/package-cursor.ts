import { BadRequestError } from '../../../shared/domain/errors';

/** A list page's cursor: the Query's LastEvaluatedKey as base64url JSON. */
export const encodeCursor = (key: Record<string, unknown>): string =>
  Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');

/** The ExclusiveStartKey of a cursor: the table keys (pk, sk) and this index's keys, all strings, of this list. */
export function decodeCursor(
  cursor: string,
  key: string,
  sortKey: string,
  value: string,
): Record<string, string> {
  const invalid = () => new BadRequestError('cursor is not a cursor this list returned');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid();
  const entries = Object.entries(parsed);
  const expected = new Set(['pk', 'sk', key, sortKey]);
  if (
    entries.length !== expected.size ||
    entries.some(([k, v]) => !expected.has(k) || typeof v !== 'string' || v.length === 0 || v.length > 512) ||
    (parsed as Record<string, string>)[key] !== value
  )
    throw invalid();
  return parsed as Record<string, string>;
}
