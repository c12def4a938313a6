import { MSG } from '../../shared/messages';
import { loadUserServiceWithMail } from '../composition-mail';
import { route } from '../routes/identity';

export const handler = route('register', async ({ body, sourceIp }) => {
  const user = await (await loadUserServiceWithMail()).register(body, sourceIp);
  return {
    statusCode: 201,
    body: { status: 'REGISTERED', message: MSG.registered, user: JSON.stringify(user) },
  };
});
