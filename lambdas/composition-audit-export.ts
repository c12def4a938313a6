import { once } from './composition';
import { auditDeps } from './composition-audit';
import { AuditExporter } from './services/audit/audit-export';

/** The audit exports: the pages' reads, the CSV and PDF files (pdf-lib) and the export's own event. */
export const auditExporter = /* @__PURE__ */ once((): AuditExporter => new AuditExporter(auditDeps()));
