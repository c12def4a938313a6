import '../composition-mail';
import { confirmEmailSchema } from '../../shared/api/contracts/user';
import { users$ } from '../composition';
import { route } from '../middleware/http';

export const handler = route(
  'confirmEmail',
  { body: confirmEmailSchema, maxBodyBytes: 4096 },
  async ({ body }) => {
    const { message, email } = await (await users$()).confirmEmail(body.token);
    return { body: { status: 'CONFIRMED', message, email } };
  },
);
