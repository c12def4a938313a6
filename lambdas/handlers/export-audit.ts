import { auditExporter } from '../composition-audit-export';
import { route } from '../routes/audit';

/** The filtered audit view as CSV or PDF, recorded as the exporter's AUDIT_EXPORTED event (decision 347). */
export const handler = route('exportAudit', async ({ body, user }) => {
  const { format, ...filter } = body;
  return { body: await auditExporter().export(filter, format, user) };
});
