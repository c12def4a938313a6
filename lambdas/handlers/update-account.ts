import '../composition-mail';
import { users$ } from '../composition';
import { route } from '../middleware/identity-route';

export const handler = route('updateAccount', async ({ body, user }) => {
  const updated = await (await users$()).updateAccount(user, body);
  return { body: { user: JSON.stringify(updated) } };
});
