import { loadUserService } from '../composition';
import { route } from '../routes/identity';

export const handler = route('login', async ({ body, sourceIp }) => {
  const r = await (await loadUserService()).login(body.login, body.password, sourceIp);
  // an account with a passkey: the second step (decision 322); POST /user/login/passkey ends it
  if ('secondFactor' in r)
    return { body: { secondFactor: { ...r.secondFactor, publicKey: { ...r.secondFactor.publicKey } } } };
  const { token, user, mustChangePassword } = r;
  // mustChangePassword: a one-time password (npm run admin:create); the SPA opens the password form
  return {
    body: { token, user: JSON.stringify(user), ...(mustChangePassword ? { mustChangePassword } : {}) },
  };
});
