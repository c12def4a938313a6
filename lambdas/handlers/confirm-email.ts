import '../composition-mail';
import { users$ } from '../composition';
import { route } from '../middleware/identity-route';

export const handler = route('confirmEmail', async ({ body }) => {
  const { message, email } = await (await users$()).confirmEmail(body.token);
  return { body: { status: 'CONFIRMED', message, email } };
});
