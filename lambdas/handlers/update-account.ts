import { loadUserServiceWithMail } from '../composition-mail';
import { route } from '../routes/identity';

export const handler = route('updateAccount', async ({ body, user }) => {
  const updated = await (await loadUserServiceWithMail()).updateAccount(user, body);
  return { body: { user: JSON.stringify(updated) } };
});
