import type { ChainedEvent, ChainHead } from '../../shared/domain/audit-chain';
import type { AuditEvent } from '../../shared/domain/audit-event';

export type { AuditEvent } from '../../shared/domain/audit-event';

/** A stored event: numbered, timed and hash-chained (shared/domain/audit-chain.ts). */
export type StoredAuditEvent = ChainedEvent;

/** A subject's events in order, and the chain head the log keeps (null when nothing was ever recorded). */
export interface AuditTrail {
  events: StoredAuditEvent[];
  head: ChainHead | null;
}

/**
 * What a state change commits with it, in the same transaction (decision 283): the audit events that
 * record it. Every repository method that changes a record takes one; the adapter chains the events
 * (numbered, timed, hashed, each subject's head advanced) inside the write, so a change is never stored
 * without its record nor a record without its change. A method given no events writes none.
 */
export interface Recorded {
  events?: readonly AuditEvent[];
}

/**
 * The audit log as services read it: a subject's history. Events are written only by the repositories,
 * with the change they record (Recorded); there is no separate append.
 */
export interface AuditLog {
  history(subject: string): Promise<AuditTrail>;
}
