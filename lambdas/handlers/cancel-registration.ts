import { loadUserService } from '../composition';
import { route } from '../routes/identity';

/** "I did not register": the mailed token cancels the registration and frees the address. */
export const handler = route('cancelRegistration', async ({ body }) => {
  const { message, email } = await (await loadUserService()).cancelRegistration(body.token);
  return { body: { status: 'CANCELLED', message, email } };
});
