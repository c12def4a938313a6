import { type ChainedEvent, eventHash, GENESIS_HASH } from '../../../shared/domain/audit-chain';
import {
  type AuditFilter,
  matchesFilter,
  newestFirst,
  timeBounds,
} from '../../../shared/domain/audit-search';
import type {
  AuditEvent,
  AuditSearch,
  AuditSearchPage,
  AuditSearchQuery,
  AuditTrail,
  StoredAuditEvent,
} from '../../ports/audit-log';
import type { Clock } from '../../ports/clock';

/**
 * The append-only, hash-chained audit log in memory: per subject, dense sequence numbers from 1, each
 * event's hash over its content and the previous hash, and a head holding the last of both (as the
 * DynamoDB log keeps them, so `verifyChain` judges both the same way). The memory repositories call
 * `record` in the same synchronous step as the change the events record (decision 283): with no await
 * between the check and the write, the change and its events are stored together or not at all.
 */
export class MemoryAuditLog implements AuditSearch {
  private readonly bySubject = new Map<string, StoredAuditEvent[]>();

  constructor(private readonly clock: Clock) {}

  /** Chains the events onto their subjects, in order (synchronous: part of the caller's commit). */
  record(events: readonly AuditEvent[] = []): void {
    const at = this.clock.now().toISOString();
    for (const event of events) {
      const list = this.bySubject.get(event.subject) ?? [];
      const last = list.at(-1);
      // stored as DynamoDB stores it: details as plain JSON (undefined members dropped)
      const { details, ...fields } = event;
      const body: Omit<ChainedEvent, 'hash'> = {
        ...fields,
        details: details && (JSON.parse(JSON.stringify(details)) as Record<string, unknown>),
        seq: (last?.seq ?? 0) + 1,
        at,
        prevHash: last?.hash ?? GENESIS_HASH,
      };
      list.push({ ...body, hash: eventHash(body) });
      this.bySubject.set(event.subject, list);
    }
  }

  async history(subject: string): Promise<AuditTrail> {
    const list = this.bySubject.get(subject) ?? [];
    const last = list.at(-1);
    return {
      events: list.map((e) => ({ ...e })),
      head: last ? { lastSeq: last.seq, lastHash: last.hash } : null,
    };
  }

  /** Every event of every subject, in the order they were recorded per subject (for assertions). */
  all(): StoredAuditEvent[] {
    return [...this.bySubject.values()].flat();
  }

  /**
   * The events the DynamoDB search reads for this filter (lambdas/adapters/dynamodb/audit-search.ts
   * `sourceOf`): one subject's partition, one actor's index entries in the date range, or every event in
   * it. Only these count as examined; the rest of the filter is applied to them, as a FilterExpression is.
   */
  private source(f: AuditFilter): StoredAuditEvent[] {
    if (f.subject) return [...(this.bySubject.get(f.subject) ?? [])];
    const { from, to } = timeBounds(f);
    return this.all().filter(
      (e) => (!f.actor || e.actorId === f.actor) && (!from || e.at >= from) && (!to || e.at <= to),
    );
  }

  /** The screen's search, newest first, as the DynamoDB adapter answers it (budget and examined included). */
  async search(q: AuditSearchQuery): Promise<AuditSearchPage> {
    const all = this.source(q.filter).sort(newestFirst);
    let i = q.after ? all.findIndex((e) => e.subject === q.after?.pk && e.seq === q.after.seq) + 1 : 0;
    const events: StoredAuditEvent[] = [];
    let examined = 0;
    for (; i < all.length && events.length < q.limit && examined < q.budget; i++) {
      examined += 1;
      const e = all[i] as StoredAuditEvent;
      if (matchesFilter(e, q.filter)) events.push({ ...e });
    }
    const last = all[i - 1];
    const next = i < all.length && last ? { pk: last.subject, seq: last.seq, at: last.at } : null;
    return { events, next, examined };
  }

  async recordOnly(events: readonly AuditEvent[]): Promise<void> {
    this.record(events);
  }
}
