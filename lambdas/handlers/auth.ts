import { route } from '../routes/identity';
import { toPublicUser } from '../services/user-service';

/** The token was checked by the route's gate; answer with the user it belongs to. */
export const handler = route('auth', async ({ user }) => ({
  body: {
    user: JSON.stringify(toPublicUser(user)),
    ...(user.mustChangePassword ? { mustChangePassword: true } : {}),
  },
}));
