import { proofOf } from '../../shared/api/contracts/packages';
import { loadUserService } from '../composition';
import { route } from '../routes/passkeys';

/** Adding a passkey starts with the caller's password (or a passkey): a stolen session adds no way in. */
export const handler = route('passkeyRegistrationOptions', async ({ body, user, sourceIp }) => {
  const c = await (await loadUserService()).startPasskeyRegistration(user, proofOf(body), sourceIp);
  return { body: { ...c, publicKey: { ...c.publicKey } } };
});
