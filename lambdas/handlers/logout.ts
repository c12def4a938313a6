import { loadUserService } from '../composition';
import { route } from '../routes/identity';

export const handler = route('logout', async ({ user }) => {
  await (await loadUserService()).logout(user);
  return { body: { status: 'SIGNED_OUT' } };
});
