import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

/** What waits for the caller as an owner: packages stalled on someone who left, rejected packages to revise. */
export const handler = route('listAttentionPackages', async ({ user }) => {
  const { stalled, rejected } = await packageService().attention(user);
  return {
    body: {
      stalled: JSON.stringify(stalled.map((s) => ({ package: s.pkg, departures: s.departures }))),
      rejected: JSON.stringify(rejected),
    },
  };
});
