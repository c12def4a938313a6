import { BadRequestError } from '../../shared/domain/errors';
import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

/**
 * The whole list, one page with `?limit=&cursor=` (docs/decisions/050-package-list-paging.md), or one page
 * of the searched and sorted list with its total (`?offset=&limit=&search=&sort=&order=`, decision 210).
 */
export const handler = route('listDeliveryPackages', async ({ query }) => {
  if (query?.drafts !== undefined) throw new BadRequestError('drafts is only for the dev and release lists');
  return { body: await packageService().listAnswer('DELIVERY', query) };
});
