import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

/**
 * The whole list, one page with `?limit=&cursor=` (docs/decisions/050-package-list-paging.md), one page
 * of the searched and sorted list with its total (`?offset=&limit=&search=&sort=&order=`, decision 210),
 * or with `?drafts=mine` the caller's own DRAFTs of the stage (the home page).
 */
export const handler = route('listPackages', async ({ params, query, user }) => {
  if (query?.drafts === 'mine')
    return { body: { packages: JSON.stringify(await packageService().myDrafts(user, params.stage)) } };
  return { body: await packageService().listAnswer(params.stage, query) };
});
