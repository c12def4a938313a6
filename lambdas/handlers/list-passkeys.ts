import { loadUserService } from '../composition';
import { route } from '../routes/passkeys';

export const handler = route('listPasskeys', async ({ user }) => ({
  body: await (await loadUserService()).listPasskeys(user),
}));
