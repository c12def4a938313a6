import '../composition-mail';
import { MSG } from '../../shared/messages';
import { users$ } from '../composition';
import { route } from '../middleware/identity-route';

export const handler = route('register', async ({ body }) => {
  const user = await (await users$()).register(body);
  return {
    statusCode: 201,
    body: { status: 'REGISTERED', message: MSG.registered, user: JSON.stringify(user) },
  };
});
