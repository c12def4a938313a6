import '../composition-mail';
import { API_ERR } from '../../shared/messages';
import { users$ } from '../composition';
import { route } from '../middleware/identity-route';

export const handler = route('resendConfirmation', async ({ body }) => {
  await (await users$()).resendConfirmation(body.email);
  return { body: { status: 'SENT', message: API_ERR.confirmationResent } };
});
