import { API_ERR } from '../../shared/messages';
import { loadUserServiceWithMail } from '../composition-mail';
import { route } from '../routes/identity';

export const handler = route('resendConfirmation', async ({ body }) => {
  await (await loadUserServiceWithMail()).resendConfirmation(body.email);
  return { body: { status: 'SENT', message: API_ERR.confirmationResent } };
});
