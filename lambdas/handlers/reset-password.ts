import { MSG } from '../../shared/messages';
import { loadUserService } from '../composition-mail';
import { route } from '../routes/identity';

export const handler = route('resetPassword', async ({ body, sourceIp }) => {
  await (await loadUserService()).resetPassword(body.email, sourceIp);
  return { body: { status: 'SENT', message: MSG.resetMailSent } };
});
