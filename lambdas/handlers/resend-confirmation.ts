import { API_ERR } from '../../shared/messages';
import { loadUserService } from '../composition-mail';
import { route } from '../routes/identity';

export const handler = route('resendConfirmation', async ({ body }) => {
  await (await loadUserService()).resendConfirmation(body.email);
  return { body: { status: 'SENT', message: API_ERR.confirmationResent } };
});
