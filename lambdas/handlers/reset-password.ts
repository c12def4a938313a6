import '../composition-mail';
import { resetPasswordSchema } from '../../shared/api/contracts/user';
import { MSG } from '../../shared/messages';
import { users$ } from '../composition';
import { route } from '../middleware/http';

export const handler = route(
  'resetPassword',
  { body: resetPasswordSchema, maxBodyBytes: 4096 },
  async ({ body, sourceIp }) => {
    await (await users$()).resetPassword(body.email, sourceIp);
    return { body: { status: 'SENT', message: MSG.resetMailSent } };
  },
);
