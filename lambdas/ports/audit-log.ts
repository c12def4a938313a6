import type { ChainHead } from '../../shared/domain/audit-chain';

export interface AuditEvent {
  /** what the event is about, e.g. `USER#<id>` or `PKG#<id>` */
  subject: string;
  action: string;
  /** what the action means, in words a reviewer understands (e.g. "approves the package for release") */
  meaning: string;
  actorId: string;
  actorName: string;
  actorRole: string;
  details?: Record<string, unknown>;
}

export interface StoredAuditEvent extends AuditEvent {
  seq: number;
  at: string;
  /** hash of the previous event of the subject, and of this one (shared/domain/audit-chain.ts) */
  prevHash: string;
  hash: string;
}

/** A subject's events in order, and the chain head the log keeps (null when nothing was ever appended). */
export interface AuditTrail {
  events: StoredAuditEvent[];
  head: ChainHead | null;
}

export interface AuditLog {
  append(event: AuditEvent): Promise<void>;
  history(subject: string): Promise<AuditTrail>;
}
