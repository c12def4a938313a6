import { registerSchema } from '../../shared/api/contracts/user';
import { MSG } from '../../shared/messages';
import { route } from '../composition-http';
import { loadUserService } from '../composition-mail';

export const handler = route('register', { body: registerSchema, maxBodyBytes: 4096 }, async ({ body }) => {
  const user = await (await loadUserService()).register(body);
  return {
    statusCode: 201,
    body: { status: 'REGISTERED', message: MSG.registered, user: JSON.stringify(user) },
  };
});
