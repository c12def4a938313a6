import '../composition-mail';
import { resendConfirmationSchema } from '../../shared/api/contracts/user';
import { API_ERR } from '../../shared/messages';
import { users$ } from '../composition';
import { route } from '../middleware/http';

export const handler = route(
  'resendConfirmation',
  { body: resendConfirmationSchema, maxBodyBytes: 4096 },
  async ({ body }) => {
    await (await users$()).resendConfirmation(body.email);
    return { body: { status: 'SENT', message: API_ERR.confirmationResent } };
  },
);
