import { loadUserServiceWithMail } from '../composition-mail';
import { route } from '../routes/identity';

export const handler = route('confirmEmail', async ({ body, sourceIp }) => {
  const { message, email } = await (await loadUserServiceWithMail()).confirmEmail(
    body.token,
    body.password,
    sourceIp,
  );
  return { body: { status: 'CONFIRMED', message, email } };
});
