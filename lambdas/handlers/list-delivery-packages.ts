import { listPageQuerySchema, pageRequest } from '../../shared/api/contracts/packages';
import { route } from '../composition-http';
import { packageService } from '../composition-packages';

/** The whole list, or one page of it with `?limit=&cursor=` (docs/decisions/050-package-list-paging.md). */
export const handler = route('listDeliveryPackages', { query: listPageQuerySchema }, async ({ query }) => {
  const page = pageRequest(query);
  if (!page) return { body: { packages: JSON.stringify(await packageService().listDelivery()) } };
  const { packages, nextCursor } = await packageService().listDeliveryPage(page);
  return { body: { packages: JSON.stringify(packages), ...(nextCursor ? { nextCursor } : {}) } };
});
