import { MSG } from '../../shared/messages';
import { loadUserServiceWithMail } from '../composition-mail';
import { route } from '../routes/identity';

export const handler = route('resetPassword', async ({ body, sourceIp }) => {
  await (await loadUserServiceWithMail()).resetPassword(body.email, sourceIp);
  return { body: { status: 'SENT', message: MSG.resetMailSent } };
});
