import { artefactService } from '../composition-artefacts';
import { SIGNATURE_ALGORITHM } from '../ports/signer';
import { route } from '../routes/packages';

/** The public key packages are signed with, so anyone can check a downloaded package offline. */
export const handler = route('signingKey', async () => {
  const { pem, keyId } = await artefactService().publicKeyPem();
  return { body: { publicKeyPem: pem, keyId, algorithm: SIGNATURE_ALGORITHM } };
});
