import { type ChainedEvent, type ChainHead, canonicalJson, eventHash, verifyChain } from './audit-chain';

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

/** One disagreement audit:verify found, naming the event (subject and seq) or the object. */
export interface AuditProblem {
  subject: string;
  seq: number | null;
  message: string;
  /** for an event missing in the bucket: the table's event, which `--copy-missing` writes there */
  missing?: ChainedEvent;
}

export interface AuditCopyReport {
  subjects: number;
  tableEvents: number;
  bucketObjects: number;
  problems: AuditProblem[];
}

/**
 * Compares the audit table with its copy in the bucket: every event in both, byte-equal in canonical
 * form, each side's hash chain unbroken (the table's also against its head), nothing in the bucket the
 * table does not hold. `items` are the table's items (events and heads); `objects` the bucket's keys
 * under AUDIT_COPY_PREFIX with their bodies.
 */
export function compareAuditCopy(
  items: readonly Record<string, unknown>[],
  objects: ReadonlyMap<string, string>,
): AuditCopyReport {
  const problems: AuditProblem[] = [];
  const bySubject = new Map<string, { events: ChainedEvent[]; head: ChainHead | null }>();
  const entry = (subject: string) => {
    const found = bySubject.get(subject);
    if (found) return found;
    const created = { events: [] as ChainedEvent[], head: null as ChainHead | null };
    bySubject.set(subject, created);
    return created;
  };
  let tableEvents = 0;
  for (const item of items) {
    const subject = String(item.pk);
    if (Number(item.seq) === 0) {
      entry(subject).head = { lastSeq: Number(item.lastSeq), lastHash: String(item.lastHash) };
    } else {
      entry(subject).events.push(eventOfItem(item));
      tableEvents += 1;
    }
  }

  const copies = new Map<string, Map<number, ChainedEvent>>();
  for (const [key, body] of objects) {
    const named = parseAuditObjectKey(key);
    if (!named) {
      problems.push({
        subject: '?',
        seq: null,
        message: `object ${key} is outside the layout events/<kind>/<id>/<seq>.json`,
      });
      continue;
    }
    let parsed: ChainedEvent;
    try {
      parsed = JSON.parse(body) as ChainedEvent;
    } catch {
      problems.push({ ...named, message: `object ${key} is not valid JSON` });
      continue;
    }
    if (!copies.has(named.subject)) copies.set(named.subject, new Map());
    copies.get(named.subject)!.set(named.seq, parsed);
  }

  for (const [subject, { events, head }] of [...bySubject].sort(([a], [b]) => a.localeCompare(b))) {
    events.sort((a, b) => Number(a.seq) - Number(b.seq));
    const broken = verifyChain(events, head);
    if (broken !== null)
      problems.push({ subject, seq: broken, message: 'the hash chain in the table is broken here' });
    const inBucket = copies.get(subject) ?? new Map<number, ChainedEvent>();
    for (const e of events) {
      const key = auditObjectKey(subject, Number(e.seq));
      const copy = inBucket.get(Number(e.seq));
      if (!copy) {
        problems.push({ subject, seq: Number(e.seq), message: `missing in the bucket (${key})`, missing: e });
        continue;
      }
      if (canonicalJson(copy) !== canonicalJson(e)) {
        const ownHash =
          eventHash(copy) === copy.hash
            ? 'its own hash matches its content'
            : 'its own hash does not match its content';
        problems.push({
          subject,
          seq: Number(e.seq),
          message: `the bucket's copy differs from the table (${key}; ${ownHash})`,
        });
      }
    }
    // the copy's own chain: its events in order, linked by their hashes (no head in the bucket)
    const copyEvents = [...inBucket.values()].sort((a, b) => Number(a.seq) - Number(b.seq));
    const copyBroken = verifyChain(copyEvents);
    if (copyBroken !== null)
      problems.push({
        subject,
        seq: copyBroken,
        message: 'the hash chain of the bucket copy is broken here',
      });
  }
  for (const [subject, inBucket] of copies) {
    const known = new Set((bySubject.get(subject)?.events ?? []).map((e) => Number(e.seq)));
    for (const seq of inBucket.keys())
      if (!known.has(seq))
        problems.push({
          subject,
          seq,
          message: `in the bucket (${auditObjectKey(subject, seq)}) but not in the table`,
        });
  }
  return { subjects: bySubject.size, tableEvents, bucketObjects: objects.size, problems };
}
