import { loadUserService } from '../composition-mail';
import { route } from '../routes/identity';

export const handler = route('updateAccount', async ({ body, user }) => {
  const updated = await (await loadUserService()).updateAccount(user, body);
  return { body: { user: JSON.stringify(updated) } };
});
