import { DynamoAuditSearch } from './adapters/dynamodb/audit-search';
import { auditTable, once } from './composition';
import { tableName } from './config/env';
import { systemClock } from './ports/clock';
import { AuditService } from './services/audit/audit-service';

/** The audit trail screen's service: the audit table read across subjects, and an export's own event. */
export const auditService = /* @__PURE__ */ once(
  (): AuditService =>
    new AuditService({ audit: new DynamoAuditSearch(tableName('audit'), auditTable), clock: systemClock }),
);
