/** One audit event as a service appends it (the log adds `seq`, `at` and the hash chain: audit-chain.ts). */
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
