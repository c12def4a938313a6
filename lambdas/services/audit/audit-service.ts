import { verifyChain } from '../../../shared/domain/audit-chain';
import { AUDIT_EXAMINE_BUDGET, type AuditFilter, type ChainState } from '../../../shared/domain/audit-search';
import { BadRequestError } from '../../../shared/domain/errors';
import type { AuditSearch, StoredAuditEvent } from '../../ports/audit-log';
import type { Clock } from '../../ports/clock';
import { decodeCursor, encodeCursor } from './cursor';

export interface AuditServiceDeps {
  audit: AuditSearch;
  clock: Clock;
}

/** The audit trail screen's pages (decisions 346, 348): admins read every subject's events. */
export class AuditService {
  constructor(protected readonly d: AuditServiceDeps) {}

  /** One page, newest first, with the chain state of each subject on it. */
  async page(filter: AuditFilter, limit: number, cursor?: string) {
    const after = cursor === undefined ? undefined : decodeCursor(cursor);
    if (after === null)
      throw new BadRequestError('This page link is not valid any more: start from the first page');
    const page = await this.d.audit.search({ filter, limit, budget: AUDIT_EXAMINE_BUDGET, after });
    return {
      events: page.events,
      nextCursor: page.next ? encodeCursor(page.next) : null,
      examined: page.examined,
      chains: await this.chains(page.events),
    };
  }

  /** Each subject's whole chain verified against its recorded head (one Query per subject). */
  async chains(events: readonly StoredAuditEvent[]): Promise<ChainState[]> {
    const subjects = [...new Set(events.map((e) => e.subject))];
    return Promise.all(
      subjects.map(async (subject) => {
        const { events: trail, head } = await this.d.audit.history(subject);
        const brokenAtSeq = verifyChain(trail, head);
        return {
          subject,
          intact: brokenAtSeq === null,
          brokenAtSeq,
          lastSeq: head?.lastSeq ?? 0,
          headHash: head?.lastHash ?? null,
        };
      }),
    );
  }
}
