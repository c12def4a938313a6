import { tokenOfBearer } from '../../shared/api/contracts/user';
import { BadRequestError } from '../../shared/domain/errors';
import { bearerToken } from '../middleware/authorize';
import { route } from '../routes/identity';
import { toPublicUser } from '../services/user-service';

/**
 * The token was checked by the route's gate; answer with the user it belongs to. The body's token
 * (spec §7: 'Bearer ' plus the cookie token), when sent, must be the one the gate checked (decision 154).
 */
export const handler = route('auth', async ({ user, body, event }) => {
  if (body?.token !== undefined && tokenOfBearer(body.token) !== bearerToken(event.headers)) {
    throw new BadRequestError('The token in the body is not the one in the Authorization header');
  }
  return {
    body: {
      user: JSON.stringify(toPublicUser(user)),
      ...(user.mustChangePassword ? { mustChangePassword: true } : {}),
    },
  };
});
