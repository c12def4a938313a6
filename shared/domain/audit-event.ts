import { z } from 'zod';

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

/**
 * An event as the log keeps it and the API returns it (`GET /packages/{id}/history`): the appended event,
 * its place in the subject's order and time, and the hash chain (audit-chain.ts). One type for the
 * server, the SPA's approval record and the audit copy.
 */
export interface ChainedEvent extends AuditEvent {
  seq: number;
  at: string;
  /** hash of the previous event of the subject, and of this one */
  prevHash: string;
  hash: string;
}

/**
 * What the SPA reads of each event of `GET /packages/{id}/history` (the approval record): the same event,
 * declared once above; the chain fields stay on the server's side (the answer's `chainIntact` is the verdict).
 */
export type HistoryEvent = Pick<
  ChainedEvent,
  'seq' | 'at' | 'action' | 'meaning' | 'actorName' | 'actorRole' | 'details'
> &
  Partial<Pick<ChainedEvent, 'actorId' | 'subject'>>;

/** The SPA parses the history's JSON text with this; typed against the declaration, so they cannot drift. */
export const historyEventSchema: z.ZodType<HistoryEvent> = z.object({
  seq: z.number().int(),
  at: z.string(),
  action: z.string(),
  meaning: z.string(),
  actorId: z.string().optional(),
  subject: z.string().optional(),
  actorName: z.string(),
  actorRole: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
