import { pageRequest } from '../../shared/api/contracts/packages';
import { packageService } from '../composition-packages';
import { route } from '../routes/admin';

/** The whole list, or one page of it with `?limit=&cursor=` (docs/decisions/050-package-list-paging.md). */
export const handler = route('adminListPackages', async ({ query }) => {
  const page = pageRequest(query);
  if (!page) return { body: { packages: JSON.stringify(await packageService().listAll()) } };
  const { packages, nextCursor } = await packageService().listAllPage(page);
  return { body: { packages: JSON.stringify(packages), ...(nextCursor ? { nextCursor } : {}) } };
});
