import type { ChainedEvent, ChainHead } from '../../shared/domain/audit-chain';
import type { AuditEvent } from '../../shared/domain/audit-event';
import type { AuditFilter } from '../../shared/domain/audit-search';

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

/** Where a search page stopped: the last event it examined (its keys in every index the search reads). */
export interface AuditPosition {
  pk: string;
  seq: number;
  at: string;
}

/** One page of the audit trail screen's search (shared/domain/audit-search.ts, decision 346). */
export interface AuditSearchQuery {
  filter: AuditFilter;
  /** the most events the page returns */
  limit: number;
  /** the most events the page may examine (a filter served by a FilterExpression reads more than it returns) */
  budget: number;
  after?: AuditPosition;
}

export interface AuditSearchPage {
  /** newest first */
  events: StoredAuditEvent[];
  /** where the next page starts; null when the search reached the oldest event */
  next: AuditPosition | null;
  /** how many stored events were read to find these (equal to `events.length` when no filter needs a FilterExpression) */
  examined: number;
}

/**
 * The audit trail read across subjects (the admin audit screen and its exports), and the one write that
 * is not part of a state change: an export records who exported what (the event is the change).
 */
export interface AuditSearch extends AuditLog {
  search(q: AuditSearchQuery): Promise<AuditSearchPage>;
  recordOnly(events: readonly AuditEvent[]): Promise<void>;
}
