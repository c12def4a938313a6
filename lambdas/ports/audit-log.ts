import type { ChainedEvent, ChainHead } from '../../shared/domain/audit-chain';
import type { AuditEvent } from '../../shared/domain/audit-event';

export type { AuditEvent } from '../../shared/domain/audit-event';

/** A stored event: numbered, timed and hash-chained (shared/domain/audit-chain.ts). */
export type StoredAuditEvent = ChainedEvent;

/** A subject's events in order, and the chain head the log keeps (null when nothing was ever appended). */
export interface AuditTrail {
  events: StoredAuditEvent[];
  head: ChainHead | null;
}

export interface AuditLog {
  append(event: AuditEvent): Promise<void>;
  history(subject: string): Promise<AuditTrail>;
}
