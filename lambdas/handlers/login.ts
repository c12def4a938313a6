import { loadUserService } from '../composition';
import { route } from '../routes/identity';

export const handler = route('login', async ({ body, sourceIp }) => {
  const { token, user, mustChangePassword } = await (await loadUserService()).login(
    body.login,
    body.password,
    sourceIp,
  );
  // mustChangePassword: a one-time password (npm run admin:create); the SPA opens the password form
  return {
    body: { token, user: JSON.stringify(user), ...(mustChangePassword ? { mustChangePassword } : {}) },
  };
});
