import '../composition-artefacts';
import { artefacts } from '../composition-packages';
import { route } from '../middleware/packages-route';
import { SIGNATURE_ALGORITHM } from '../ports/signer';

/** The public key packages are signed with, so anyone can check a downloaded package offline. */
export const handler = route('signingKey', async () => {
  const { pem, keyId } = await artefacts().publicKeyPem();
  return { body: { publicKeyPem: pem, keyId, algorithm: SIGNATURE_ALGORITHM } };
});
