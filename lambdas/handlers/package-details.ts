import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

/** One package and what it waits for from the caller: the SPA's deep link from a mail. */
export const handler = route('packageDetails', async ({ params, user }) => {
  const { pkg, waitingFor } = await packageService().openOne(user, params.id);
  return { body: { package: JSON.stringify(pkg), waitingFor } };
});
