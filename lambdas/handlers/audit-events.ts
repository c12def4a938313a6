import { AUDIT_PAGE_SIZES } from '../../shared/domain/audit-search';
import { auditService } from '../composition-audit';
import { route } from '../routes/audit';

/** One page of every subject's audit events, newest first, with each subject's chain state (decision 346). */
export const handler = route('auditEvents', async ({ query }) => {
  const { limit, cursor, ...filter } = query ?? {};
  const page = await auditService().page(filter, limit ?? AUDIT_PAGE_SIZES[0], cursor);
  return { body: { ...page, events: JSON.stringify(page.events) } };
});
