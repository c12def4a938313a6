import { accessTokenService } from '../composition-access-tokens';
import { route } from '../routes/access-tokens';

export const handler = route('listAccessTokens', async ({ user }) => ({
  body: { accessTokens: await accessTokenService().list(user) },
}));
