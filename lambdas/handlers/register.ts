import '../composition-mail';
import { registerSchema } from '../../shared/api/contracts/user';
import { MSG } from '../../shared/messages';
import { users$ } from '../composition';
import { route } from '../middleware/http';

export const handler = route('register', { body: registerSchema, maxBodyBytes: 4096 }, async ({ body }) => {
  const user = await (await users$()).register(body);
  return {
    statusCode: 201,
    body: { status: 'REGISTERED', message: MSG.registered, user: JSON.stringify(user) },
  };
});
