import { loadUserService } from '../composition';
import { route } from '../routes/passkeys';

export const handler = route('addPasskey', async ({ body, user }) => ({
  statusCode: 201,
  body: { passkey: await (await loadUserService()).addPasskey(user, body) },
}));
