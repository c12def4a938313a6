import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

/** Issue 25: the earlier packages a new package of this resource may start from. */
export const handler = route('packageSources', async ({ params }) => {
  const s = await packageService().packageSources(params.id);
  return { body: { packages: JSON.stringify(s.packages), proposedId: s.proposedId, freeName: s.freeName } };
});
