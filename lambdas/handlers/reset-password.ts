import '../composition-mail';
import { MSG } from '../../shared/messages';
import { users$ } from '../composition';
import { route } from '../middleware/identity-route';

export const handler = route('resetPassword', async ({ body, sourceIp }) => {
  await (await users$()).resetPassword(body.email, sourceIp);
  return { body: { status: 'SENT', message: MSG.resetMailSent } };
});
