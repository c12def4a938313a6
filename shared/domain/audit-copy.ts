import { type ChainedEvent, canonicalJson } from './audit-chain';

/**
 * The write-once copy of the audit trail (decision 097): every event, exactly as stored in the audit
 * table with its hash, is one object in the audit bucket at `events/<kind>/<id>/<seq>.json`, where the
 * subject is `<kind>#<id>` (e.g. `PKG#<uuid>`) and seq is zero-padded to 10 digits so keys sort in order.
 */
export const AUDIT_COPY_PREFIX = 'events/';

/** The bucket key of an event of a subject. */
export function auditObjectKey(subject: string, seq: number): string {
  const i = subject.indexOf('#');
  const path = i === -1 ? subject : `${subject.slice(0, i)}/${subject.slice(i + 1)}`;
  return `${AUDIT_COPY_PREFIX}${path}/${String(seq).padStart(10, '0')}.json`;
}

/** The subject and seq a key names, or null for a key outside the layout. */
export function parseAuditObjectKey(key: string): { subject: string; seq: number } | null {
  const m = /^events\/([^/]+)\/(.+)\/(\d{10})\.json$/.exec(key);
  if (!m) return null;
  return { subject: `${m[1]}#${m[2]}`, seq: Number(m[3]) };
}

/** The event as stored (table item without its keys' bookkeeping), in canonical JSON: the object's body. */
export function auditObjectBody(event: ChainedEvent): string {
  return `${canonicalJson(event)}\n`;
}

/** An audit table item (pk = subject, kind) as the chained event it holds. */
export function eventOfItem(item: Record<string, unknown>): ChainedEvent {
  const { pk: _pk, kind: _kind, ...event } = item;
  return event as unknown as ChainedEvent;
}
