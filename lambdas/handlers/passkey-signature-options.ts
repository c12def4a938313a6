import { loadUserService } from '../composition';
import { route } from '../routes/passkeys';

export const handler = route('passkeySignatureOptions', async ({ user }) => {
  const c = await (await loadUserService()).passkeySignatureOptions(user);
  return { body: { ...c, publicKey: { ...c.publicKey } } };
});
