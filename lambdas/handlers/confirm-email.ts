import { confirmEmailSchema } from '../../shared/api/contracts/user';
import { route } from '../composition-http';
import { loadUserService } from '../composition-mail';

export const handler = route(
  'confirmEmail',
  { body: confirmEmailSchema, maxBodyBytes: 4096 },
  async ({ body }) => {
    const { message, email } = await (await loadUserService()).confirmEmail(body.token);
    return { body: { status: 'CONFIRMED', message, email } };
  },
);
