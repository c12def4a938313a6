import {
  AUDIT_EXAMINE_BUDGET,
  AUDIT_EXPORT_LIMIT,
  type AuditFilter,
  filterText,
} from '../../../shared/domain/audit-search';
import { PayloadTooLargeError } from '../../../shared/domain/errors';
import type { AuditSearch, StoredAuditEvent } from '../../ports/audit-log';
import type { UserRecord } from '../../ports/user-repository';
import { auditCsv, DIGEST_RECIPE, exportDigest } from './audit-csv';
import { auditPdf } from './audit-pdf';
import { AuditService } from './audit-service';

export type ExportFormat = 'CSV' | 'PDF';

/** The most events an export may examine to find its rows: a narrower filter is asked for beyond it. */
const EXPORT_EXAMINE_LIMIT = 50 * AUDIT_EXAMINE_BUDGET;

/**
 * The audit exports (decision 347), apart from the pages so that only the export's function bundles the
 * PDF library.
 */
export class AuditExporter extends AuditService {
  /**
   * The filtered view as a file (every matching event, at most AUDIT_EXPORT_LIMIT), recorded as an event
   * of the exporter's own subject in its own commit before the file is answered: no export leaves unrecorded.
   */
  async export(filter: AuditFilter, format: ExportFormat, user: UserRecord) {
    const events = await this.everything(filter);
    const chains = await this.chains(events);
    const digest = exportDigest(events);
    const generatedAt = this.d.clock.now().toISOString();
    const stamp = generatedAt.replace(/[:.]/g, '-');
    const fileName = `audit-trail-${stamp}.${format === 'CSV' ? 'csv' : 'pdf'}`;
    const bytes =
      format === 'CSV'
        ? Buffer.from(auditCsv(events, new Map(chains.map((c) => [c.subject, c]))), 'utf8')
        : Buffer.from(
            await auditPdf(
              {
                title: 'Audit trail - Firmware Release Portal',
                filter: filterText(filter),
                generatedAt,
                exportedBy: `${user.name} (${user.userRole}, ${user.id})`,
                digest,
                recipe: DIGEST_RECIPE,
              },
              events,
              chains,
            ),
          );
    await this.d.audit.recordOnly([
      {
        subject: `USER#${user.id}`,
        action: 'AUDIT_EXPORTED',
        meaning: `exports ${events.length} audit events as ${format} (${filterText(filter)})`,
        actorId: user.id,
        actorName: user.name,
        actorRole: user.userRole,
        details: { format, filter, events: events.length, digest, fileName },
      },
    ]);
    return {
      fileName,
      contentType: format === 'CSV' ? ('text/csv; charset=utf-8' as const) : ('application/pdf' as const),
      base64: bytes.toString('base64'),
      events: events.length,
      digest,
    };
  }

  /** Every event of the filter, refused (413, nothing recorded) beyond the export limit. */
  private async everything(filter: AuditFilter): Promise<StoredAuditEvent[]> {
    const events: StoredAuditEvent[] = [];
    let examined = 0;
    let after: Awaited<ReturnType<AuditSearch['search']>>['next'] | undefined;
    do {
      const page = await this.d.audit.search({
        filter,
        limit: AUDIT_EXPORT_LIMIT + 1 - events.length,
        budget: AUDIT_EXAMINE_BUDGET,
        after: after ?? undefined,
      });
      events.push(...page.events);
      examined += page.examined;
      after = page.next;
      if (events.length > AUDIT_EXPORT_LIMIT)
        throw new PayloadTooLargeError(
          `An export holds at most ${AUDIT_EXPORT_LIMIT} events and this view has more: narrow it (dates, user, action or subject) and export each part`,
        );
      if (after && examined >= EXPORT_EXAMINE_LIMIT)
        throw new PayloadTooLargeError(
          `This filter needs more than ${EXPORT_EXAMINE_LIMIT} stored events read: add a date range or a user to the filter`,
        );
    } while (after);
    return events;
  }
}
