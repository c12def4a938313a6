import { z } from 'zod';
import type { ChainedEvent } from './audit-event';

/*
 * The audit trail screen's search (decision 346): every event of every subject, newest first, filtered by
 * who acted, what they did, the subject (one subject, or a kind of subject) and a UTC date range. The
 * same filter drives the screen's pages and the CSV/PDF exports of the filtered view.
 */

/** The kinds of subject events are recorded on (the part of `subject` before `#`), with their labels. */
export const AUDIT_SUBJECT_KINDS = ['PKG', 'USER', 'RES', 'DCC'] as const;
export type AuditSubjectKind = (typeof AUDIT_SUBJECT_KINDS)[number];
export const AUDIT_SUBJECT_KIND_LABELS: Record<AuditSubjectKind, string> = {
  PKG: 'Packages',
  USER: 'Users, roles and tokens',
  RES: 'Resources',
  DCC: 'DCCs',
};

/** Rows per page of the screen, and the most one page may ask for. */
export const AUDIT_PAGE_SIZES = [25, 50, 100] as const;
export const AUDIT_MAX_PAGE = 100;
/**
 * The most events a page may examine when a filter is served by a FilterExpression (the action, a kind
 * of subject, a date range on one subject): the page then ends early with `examined` saying so, and the
 * cursor continues where it stopped. Reads stay bounded whatever the filter.
 */
export const AUDIT_EXAMINE_BUDGET = 2000;
/** The most events one export holds (a PDF of this many rows stays under Lambda's 6 MB answer). */
export const AUDIT_EXPORT_LIMIT = 2000;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dateSchema = z
  .string()
  .regex(DAY, 'a date is written YYYY-MM-DD (UTC)')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'not a calendar date');

/** The filter's fields, as the query string and the export's body carry them. Every field is optional. */
export const auditFilterShape = {
  actor: z.string().trim().min(1).max(200).optional().meta({ description: "the actor's user id" }),
  action: z
    .string()
    .regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'an action is written in capitals, e.g. ROLE_GRANTED')
    .optional(),
  subject: z
    .string()
    .regex(/^[A-Z]+#\S{1,200}$/, 'a subject is written KIND#id, e.g. PKG#1234')
    .optional(),
  subjectKind: z.enum(AUDIT_SUBJECT_KINDS).optional(),
  from: dateSchema.optional().meta({ description: 'first day, UTC, inclusive (YYYY-MM-DD)' }),
  to: dateSchema.optional().meta({ description: 'last day, UTC, inclusive (YYYY-MM-DD)' }),
};

/** A date range runs forwards (checked on every schema that carries the filter). */
export const datesInOrder: [
  (f: { from?: string; to?: string }) => boolean,
  { message: string; path: string[] },
] = [
  (f) => !(f.from && f.to && f.from > f.to),
  { message: "The 'from' date is after the 'to' date", path: ['from'] },
];

export const auditFilterSchema = z.strictObject(auditFilterShape).refine(...datesInOrder);
export type AuditFilter = z.infer<typeof auditFilterSchema>;

/** The bounds of the filter's dates as `at` strings (ISO, UTC, milliseconds): compared as text. */
export function timeBounds(f: AuditFilter): { from?: string; to?: string } {
  return {
    from: f.from ? `${f.from}T00:00:00.000Z` : undefined,
    to: f.to ? `${f.to}T23:59:59.999Z` : undefined,
  };
}

/** The kind of a subject (`PKG#12` → `PKG`). */
export const subjectKindOf = (subject: string): string => subject.split('#', 1)[0] ?? subject;

/** Whether an event passes the filter: the memory log's search, and the reference the tests hold DynamoDB to. */
export function matchesFilter(
  e: Pick<ChainedEvent, 'actorId' | 'action' | 'subject' | 'at'>,
  f: AuditFilter,
) {
  const { from, to } = timeBounds(f);
  return (
    (!f.actor || e.actorId === f.actor) &&
    (!f.action || e.action === f.action) &&
    (!f.subject || e.subject === f.subject) &&
    (!f.subjectKind || subjectKindOf(e.subject) === f.subjectKind) &&
    (!from || e.at >= from) &&
    (!to || e.at <= to)
  );
}

/** Newest first; within one instant, the later event of a subject first (then by subject, for a total order). */
export function newestFirst(a: Pick<ChainedEvent, 'at' | 'subject' | 'seq'>, b: typeof a): number {
  if (a.at !== b.at) return a.at < b.at ? 1 : -1;
  if (a.subject !== b.subject) return a.subject < b.subject ? 1 : -1;
  return b.seq - a.seq;
}

/** A subject's chain as the search judged it: intact, or broken at an event. */
export interface ChainState {
  subject: string;
  intact: boolean;
  /** the first event whose link or hash is wrong (or the missing one after the last), null when intact */
  brokenAtSeq: number | null;
  /** the head the log recorded: the last event's number and hash */
  lastSeq: number;
  headHash: string | null;
}

/** One row of the screen and the exports: the event as stored, chain fields included (they are the proof). */
export type AuditRow = ChainedEvent;

/** The words a chain state is shown with (screen, CSV, PDF). */
export const chainStateText = (c: Pick<ChainState, 'intact' | 'brokenAtSeq'>): string =>
  c.intact ? 'chain intact' : `chain broken at event ${c.brokenAtSeq}`;

/** The filter in words, as the exports print it ("all events" when nothing narrows it). */
export function filterText(f: AuditFilter): string {
  const parts = [
    f.actor && `actor ${f.actor}`,
    f.action && `action ${f.action}`,
    f.subject && `subject ${f.subject}`,
    f.subjectKind && `subjects of kind ${f.subjectKind}`,
    f.from && `from ${f.from}`,
    f.to && `to ${f.to}`,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'all events';
}
