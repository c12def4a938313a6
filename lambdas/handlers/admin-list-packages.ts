import { pageRequest } from '../../shared/api/contracts/packages';
import { packages$ } from '../composition-packages';
import { route } from '../middleware/admin-route';

/** The whole list, or one page of it with `?limit=&cursor=` (docs/decisions/050-package-list-paging.md). */
export const handler = route('adminListPackages', async ({ query }) => {
  const page = pageRequest(query);
  if (!page) return { body: { packages: JSON.stringify(await packages$().listAll()) } };
  const { packages, nextCursor } = await packages$().listAllPage(page);
  return { body: { packages: JSON.stringify(packages), ...(nextCursor ? { nextCursor } : {}) } };
});
