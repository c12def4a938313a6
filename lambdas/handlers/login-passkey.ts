import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { loadUserService } from '../composition';
import { route } from '../routes/passkeys';

/** The passkey step of a sign-in (decision 322): answers exactly as POST /user/login does without one. */
export const handler = route('loginPasskey', async ({ body, sourceIp }) => {
  const { token, user, mustChangePassword } = await (await loadUserService()).loginPasskey(
    body.ticket,
    body.response as AuthenticationResponseJSON,
    sourceIp,
  );
  return {
    body: { token, user: JSON.stringify(user), ...(mustChangePassword ? { mustChangePassword } : {}) },
  };
});
