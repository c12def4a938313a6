import { accessTokenService } from '../composition-access-tokens';
import { route } from '../routes/access-tokens';

export const handler = route('createAccessToken', async ({ user, body }) => ({
  statusCode: 201,
  body: await accessTokenService().create(user, body),
}));
