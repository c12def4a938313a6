import { loadUserService } from '../composition';
import { route } from '../routes/passkeys';

export const handler = route('renamePasskey', async ({ params, body, user }) => ({
  body: { passkey: await (await loadUserService()).renamePasskey(user, params.passkeyId, body.name) },
}));
