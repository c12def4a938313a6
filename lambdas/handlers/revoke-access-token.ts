import { accessTokenService } from '../composition-access-tokens';
import { route } from '../routes/access-tokens';

export const handler = route('revokeAccessToken', async ({ user, params }) => ({
  body: { accessToken: await accessTokenService().revoke(user, params.tokenId) },
}));
