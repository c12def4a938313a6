import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { type ChainedEvent, eventHash, GENESIS_HASH } from '../../../shared/domain/audit-chain';
import type { AuditEvent } from '../../ports/audit-log';
import type { Clock } from '../../ports/clock';
import { getItem, putNew, type TransactItem, transact } from './transact';

/** seq 0 of a subject is its chain head: the last sequence number and hash (audit-log.ts reads it) */
export const HEAD_SEQ = 0;
const MAX_ATTEMPTS = 200;
const BACKOFF_CAP_MS = 160;

/** Where the events of a repository's writes go: the audit table (named on first use) and the clock that times them. */
export interface AuditTable {
  readonly table: () => string;
  readonly clock: Clock;
  /** told the events of each transaction that committed, once it did (the business metrics count them) */
  readonly committed?: (events: readonly AuditEvent[]) => void;
}

/** The audit table of a repository built without one: a write that carries events fails, naming why. */
export const NO_AUDIT_TABLE: AuditTable = {
  table: () => {
    throw new Error('This repository has no audit table: its writes cannot record events');
  },
  clock: { now: () => new Date() },
};

/**
 * The items that chain `events` onto their subjects' heads as read now (consistent reads): per event a Put
 * of a new item (`attribute_not_exists`), per subject one Put of its head conditional on the head read
 * (`lastSeq = :last`, or no head yet). Several events of one subject get consecutive sequence numbers, in
 * the order given. Only Puts: the audit table stays append-only for IAM (grant-uses.ts, iam-check.ts).
 */
export async function chainItems(audit: AuditTable, events: readonly AuditEvent[]): Promise<TransactItem[]> {
  if (events.length === 0) return [];
  const table = audit.table();
  const subjects = [...new Set(events.map((e) => e.subject))];
  const heads = await Promise.all(subjects.map((s) => getItem(table, { pk: s, seq: HEAD_SEQ })));
  const at = audit.clock.now().toISOString();
  const items: TransactItem[] = [];
  subjects.forEach((subject, i) => {
    const head = heads[i];
    const lastSeq = Number(head?.lastSeq ?? 0);
    let seq = lastSeq;
    let prevHash = String(head?.lastHash ?? GENESIS_HASH);
    for (const e of events.filter((x) => x.subject === subject)) {
      seq += 1;
      const body: Omit<ChainedEvent, 'hash'> = {
        seq,
        at,
        subject,
        action: e.action,
        meaning: e.meaning,
        actorId: e.actorId,
        actorName: e.actorName,
        actorRole: e.actorRole,
        // stored as plain JSON: the hash covers exactly what a reader gets back
        details: e.details ? (JSON.parse(JSON.stringify(e.details)) as Record<string, unknown>) : undefined,
        prevHash,
      };
      const hash = eventHash(body);
      items.push(putNew(table, { ...body, pk: subject, hash, kind: 'AUDIT' }));
      prevHash = hash;
    }
    items.push({
      Put: {
        TableName: table,
        Item: { pk: subject, seq: HEAD_SEQ, kind: 'AUDIT_HEAD', lastSeq: seq, lastHash: prevHash },
        ConditionExpression: head ? 'lastSeq = :last' : 'attribute_not_exists(pk)',
        ExpressionAttributeValues: head ? { ':last': lastSeq } : undefined,
      },
    });
  });
  return items;
}

/** One try of a recorded write: the state's items and the events that record them, or an answer without writing. */
export type RecordedAttempt<T> =
  | { items: TransactItem[]; events: readonly AuditEvent[]; result: T }
  | { done: T };

export interface RecordedOptions {
  /**
   * A state item's failed condition is retried (on a fresh `attempt`, which reads again and may answer
   * `done`) instead of thrown: for writes whose condition is what they just read (a vote on the version).
   */
  retryStateConflicts?: boolean;
}

/** Why the previous try of a recorded write lost: a state item's condition, or a concurrent writer. */
export type LostTo = 'state' | 'concurrency';

/** Why a cancelled transaction was cancelled, item by item. */
function reasons(e: TransactionCanceledException): string[] {
  return (e.CancellationReasons ?? []).map((r) => r.Code ?? 'None');
}

/**
 * Commits a state change and the audit events that record it in ONE TransactWriteItems (decision 283):
 * the state's items first (so the caller's `cancelledBy(e, i)` indexes are its own), then the chain
 * items of the events. `attempt` is called for every try, after the previous one lost (told why), so it
 * may read.
 *   - a state item's condition failed: thrown to the caller as is (its refusal: a version, a name, a
 *     status), unless `retryStateConflicts`;
 *   - an audit item's condition failed (another event of the subject committed between the head read and
 *     this write) or a transaction conflict: tried again on fresh reads, with full-jitter backoff that
 *     stops growing at 160 ms: a loser whose wait kept doubling lost every later race to fresh writers
 *     (ten voters on one package: p99 9.4 s at a 2 s cap, 3.9 s at 160 ms; docs/performance.md).
 * A write with no events is one plain transaction (a conflict is retried like the others).
 */
export async function commitRecorded<T>(
  audit: AuditTable,
  attempt: (lost?: LostTo) => Promise<RecordedAttempt<T>>,
  opts: RecordedOptions = {},
): Promise<T> {
  let lostTo: LostTo | undefined;
  for (let n = 0; n < MAX_ATTEMPTS; n++) {
    const a = await attempt(lostTo);
    if ('done' in a) return a.done;
    const chain = await chainItems(audit, a.events);
    try {
      await transact([...a.items, ...chain]);
      audit.committed?.(a.events);
      return a.result;
    } catch (e) {
      if (!(e instanceof TransactionCanceledException)) throw e;
      const why = reasons(e);
      const stateRefused = why.slice(0, a.items.length).includes('ConditionalCheckFailed');
      const lost =
        why.slice(a.items.length).includes('ConditionalCheckFailed') ||
        why.some((c) => c === 'TransactionConflict' || c === 'ThrottlingError');
      if (stateRefused && !opts.retryStateConflicts) throw e;
      if (!stateRefused && !lost) throw e;
      lostTo = stateRefused ? 'state' : 'concurrency';
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(BACKOFF_CAP_MS, 20 * 2 ** n)));
    }
  }
  throw new Error(`a recorded write kept losing to concurrent writes after ${MAX_ATTEMPTS} attempts`);
}

/** A recorded write of fixed items (no read between tries): the common case. */
export function writeRecorded(
  audit: AuditTable,
  items: TransactItem[],
  events: readonly AuditEvent[] = [],
): Promise<void> {
  return commitRecorded(audit, async () => ({ items, events, result: undefined }));
}
