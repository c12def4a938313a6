import { createHash } from 'node:crypto';
import { type ChainState, chainStateText } from '../../../shared/domain/audit-search';
import type { StoredAuditEvent } from '../../ports/audit-log';

/**
 * The export digest (decision 347): SHA-256 over the exported events' own hashes, in the file's order
 * (newest first), each followed by a line feed. Each event's hash covers its content and the previous
 * event of its subject (shared/domain/audit-chain.ts), so the digest pins every exported event and its
 * place in its chain. How to check it, printed on every PDF page and in the docs:
 */
export const DIGEST_RECIPE =
  "SHA-256 of the 'hash' column, in the file's order, each value followed by a line feed: " +
  "python3 -c \"import csv,sys,hashlib;print(hashlib.sha256(''.join(r['hash']+'\\n' for r in csv.DictReader(open(sys.argv[1]))).encode()).hexdigest())\" audit.csv";

export function exportDigest(events: readonly Pick<StoredAuditEvent, 'hash'>[]): string {
  const h = createHash('sha256');
  for (const e of events) h.update(`${e.hash}\n`);
  return h.digest('hex');
}

export const CSV_COLUMNS = [
  'at',
  'subject',
  'seq',
  'actorId',
  'actorName',
  'actorRole',
  'action',
  'meaning',
  'details',
  'chain',
  'prevHash',
  'hash',
] as const;

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
function field(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/**
 * The events as CSV (RFC 4180, CRLF rows, a header row), one row per event, with the chain state of its
 * subject. `details` is the event's JSON (line breaks escaped by JSON), so a row is one line.
 */
export function auditCsv(
  events: readonly StoredAuditEvent[],
  chains: ReadonlyMap<string, ChainState>,
): string {
  const rows = events.map((e) => {
    const chain = chains.get(e.subject);
    const cells: Record<(typeof CSV_COLUMNS)[number], string> = {
      at: e.at,
      subject: e.subject,
      seq: String(e.seq),
      actorId: e.actorId,
      actorName: e.actorName,
      actorRole: e.actorRole,
      action: e.action,
      meaning: e.meaning,
      details: e.details ? JSON.stringify(e.details) : '',
      chain: chain ? chainStateText(chain) : '',
      prevHash: e.prevHash,
      hash: e.hash,
    };
    return CSV_COLUMNS.map((c) => field(cells[c])).join(',');
  });
  return `${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}
