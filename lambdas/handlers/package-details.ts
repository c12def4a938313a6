import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

/** One package, what it waits for from the caller, and whom it waits on who left their role (decision 351). */
export const handler = route('packageDetails', async ({ params, user }) => {
  const service = packageService();
  const { pkg, waitingFor } = await service.openOne(user, params.id);
  const departures = await service.departures(params.id);
  return { body: { package: JSON.stringify(pkg), waitingFor, departures } };
});
