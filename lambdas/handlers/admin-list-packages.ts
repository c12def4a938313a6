import { BadRequestError } from '../../shared/domain/errors';
import { packageService } from '../composition-packages';
import { route } from '../routes/admin';

/**
 * The whole list, one page with `?limit=&cursor=` (docs/decisions/050-package-list-paging.md), or one page
 * of the searched and sorted list with its total (`?offset=&limit=&search=&sort=&order=`, decision 210).
 */
export const handler = route('adminListPackages', async ({ query }) => {
  if (query?.drafts !== undefined) throw new BadRequestError('drafts is only for the dev and release lists');
  return { body: await packageService().listAnswer('ALL', query) };
});
