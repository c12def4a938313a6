import { resendConfirmationSchema } from '../../shared/api/contracts/user';
import { API_ERR } from '../../shared/messages';
import { route } from '../composition-http';
import { loadUserService } from '../composition-mail';

export const handler = route(
  'resendConfirmation',
  { body: resendConfirmationSchema, maxBodyBytes: 4096 },
  async ({ body }) => {
    await (await loadUserService()).resendConfirmation(body.email);
    return { body: { status: 'SENT', message: API_ERR.confirmationResent } };
  },
);
