import { DynamoAuditSearch } from './adapters/dynamodb/audit-search';
import { auditTable, once } from './composition';
import { tableName } from './config/env';
import { systemClock } from './ports/clock';
import type { AuditServiceDeps } from './services/audit/audit-service';
import { AuditService } from './services/audit/audit-service';

/** What both audit services read: the audit table across subjects, and the clock. */
export const auditDeps = (): AuditServiceDeps => ({
  audit: new DynamoAuditSearch(tableName('audit'), auditTable),
  clock: systemClock,
});

/**
 * The audit trail screen's pages: the audit table read across subjects. The exports are in
 * composition-audit-export.ts, so this function's bundle carries no PDF library.
 */
export const auditService = /* @__PURE__ */ once((): AuditService => new AuditService(auditDeps()));
