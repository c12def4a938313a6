import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

/** the earlier packages a new package of this resource (or of the device `deviceId`) may start from. */
export const handler = route('packageSources', async ({ params, query }) => {
  const s = await packageService().packageSources(params.id, query.deviceId);
  return { body: { packages: JSON.stringify(s.packages), proposedId: s.proposedId, freeName: s.freeName } };
});
