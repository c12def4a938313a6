import { resetPasswordSchema } from '../../shared/api/contracts/user';
import { MSG } from '../../shared/messages';
import { route } from '../composition-http';
import { loadUserService } from '../composition-mail';

export const handler = route(
  'resetPassword',
  { body: resetPasswordSchema, maxBodyBytes: 4096 },
  async ({ body, sourceIp }) => {
    await (await loadUserService()).resetPassword(body.email, sourceIp);
    return { body: { status: 'SENT', message: MSG.resetMailSent } };
  },
);
