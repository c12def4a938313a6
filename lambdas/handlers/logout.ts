import { users$ } from '../composition';
import { route } from '../middleware/identity-route';

export const handler = route('logout', async ({ user }) => {
  await (await users$()).logout(user);
  return { body: { status: 'SIGNED_OUT' } };
});
