import { type ChainedEvent, eventHash, GENESIS_HASH } from '../../../shared/domain/audit-chain';
import type { AuditEvent, AuditLog, AuditTrail, StoredAuditEvent } from '../../ports/audit-log';
import type { Clock } from '../../ports/clock';

/**
 * The append-only, hash-chained audit log in memory: per subject, dense sequence numbers from 1, each
 * event's hash over its content and the previous hash, and a head holding the last of both (as the
 * DynamoDB log keeps them, so `verifyChain` judges both the same way).
 */
export class MemoryAuditLog implements AuditLog {
  private readonly events = new Map<string, StoredAuditEvent[]>();

  constructor(private readonly clock: Clock) {}

  async append(event: AuditEvent): Promise<void> {
    const list = this.events.get(event.subject) ?? [];
    const last = list.at(-1);
    // stored as DynamoDB stores it: details as plain JSON (undefined members dropped)
    const { details, ...fields } = event;
    const body: Omit<ChainedEvent, 'hash'> = {
      ...fields,
      details: details && (JSON.parse(JSON.stringify(details)) as Record<string, unknown>),
      seq: (last?.seq ?? 0) + 1,
      at: this.clock.now().toISOString(),
      prevHash: last?.hash ?? GENESIS_HASH,
    };
    list.push({ ...body, hash: eventHash(body) });
    this.events.set(event.subject, list);
  }

  async history(subject: string): Promise<AuditTrail> {
    const list = this.events.get(subject) ?? [];
    const last = list.at(-1);
    return {
      events: list.map((e) => ({ ...e })),
      head: last ? { lastSeq: last.seq, lastHash: last.hash } : null,
    };
  }

  /** Every event of every subject, in the order they were appended per subject (for assertions). */
  all(): StoredAuditEvent[] {
    return [...this.events.values()].flat();
  }
}
