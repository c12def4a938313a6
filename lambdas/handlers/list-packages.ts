import { pageRequest } from '../../shared/api/contracts/packages';
import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

/** The whole list, or one page of it with `?limit=&cursor=` (docs/decisions/050-package-list-paging.md). */
export const handler = route('listPackages', async ({ params, query }) => {
  const page = pageRequest(query);
  if (!page) return { body: { packages: JSON.stringify(await packageService().listStage(params.stage)) } };
  const { packages, nextCursor } = await packageService().listStagePage(params.stage, page);
  return { body: { packages: JSON.stringify(packages), ...(nextCursor ? { nextCursor } : {}) } };
});
