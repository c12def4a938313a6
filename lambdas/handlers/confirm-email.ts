import { loadUserService } from '../composition-mail';
import { route } from '../routes/identity';

export const handler = route('confirmEmail', async ({ body }) => {
  const { message, email } = await (await loadUserService()).confirmEmail(body.token);
  return { body: { status: 'CONFIRMED', message, email } };
});
