import * as z from 'zod';
import { AUDIT_MAX_PAGE, auditFilterShape, datesInOrder } from '../../domain/audit-search';
import { answer, jsonText } from '../contracts/responses';
import { ADMIN } from './groups';
import type { Route, RouteRequest } from './types';

/**
 * The audit trail screen (decisions 346–348): every event of every subject, filtered and paged on the
 * server, and its exports. Admins only: the spec's six roles have no auditor (decision 346 says why and
 * what adding one takes).
 */
export const AUDIT_ROUTES = [
  {
    id: 'auditEvents',
    method: 'GET',
    path: '/admin/audit',
    access: ADMIN,
    uses: { tables: ['users', 'audit'], writes: [] },
    summary:
      'Audit events of every subject, newest first, filtered and paged, with each subject’s chain state',
  },
  {
    id: 'exportAudit',
    method: 'POST',
    path: '/admin/audit/export',
    access: ADMIN,
    // the export is itself an event of the exporter (written alone, in its own commit)
    uses: { tables: ['users', 'audit'], writes: ['audit'] },
    memoryMb: 1024,
    summary: 'Export the filtered audit view as CSV or PDF (recorded as an AUDIT_EXPORTED event)',
  },
] as const satisfies readonly Route[];

const limitError = `limit must be a whole number from 1 to ${AUDIT_MAX_PAGE}`;

/** Requests of the audit rows. */
export const AUDIT_CONTRACT = {
  auditEvents: {
    query: z
      .strictObject({
        ...auditFilterShape,
        limit: z
          .string()
          .regex(/^\d{1,3}$/, { error: limitError })
          .transform(Number)
          .pipe(z.number().min(1, { error: limitError }).max(AUDIT_MAX_PAGE, { error: limitError }))
          .optional(),
        cursor: z.string().max(1000).optional().meta({ description: '`nextCursor` of the previous page' }),
      })
      .refine(...datesInOrder)
      .optional(),
  },
  exportAudit: {
    body: z
      .strictObject({
        ...auditFilterShape,
        format: z.enum(['CSV', 'PDF'], { error: "format must be 'CSV' or 'PDF'" }),
      })
      .refine(...datesInOrder),
  },
} as const satisfies { [Id in (typeof AUDIT_ROUTES)[number]['id']]: RouteRequest };

const chainState = z.object({
  subject: z.string(),
  intact: z.boolean(),
  brokenAtSeq: z.number().nullable(),
  lastSeq: z.number(),
  headHash: z.string().nullable(),
});

/** Answers of the audit rows. */
export const AUDIT_RESPONSES = {
  auditEvents: answer({
    events: jsonText(
      'the events, newest first (ChainedEvent[]: seq, at, subject, action, meaning, actor, details, prevHash, hash)',
    ),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'pass back as `cursor` for the next (older) page; null at the oldest' }),
    examined: z.number().meta({
      description:
        'stored events read for this page: more than the events when a filter is served by a FilterExpression',
    }),
    chains: z.array(chainState).meta({ description: 'the chain state of each subject on the page' }),
  }),
  exportAudit: answer({
    fileName: z.string(),
    contentType: z.enum(['text/csv; charset=utf-8', 'application/pdf']),
    base64: z.string().meta({ description: 'the file, base64' }),
    events: z.number(),
    digest: z.string().meta({ description: 'SHA-256 over the exported events’ hashes, each followed by LF' }),
  }),
} as const satisfies { [Id in (typeof AUDIT_ROUTES)[number]['id']]: z.ZodType };
