import { artefactService } from '../composition-artefacts';
import { SIGNATURE_ALGORITHM } from '../ports/signer';
import { route } from '../routes/packages';

/**
 * A public key packages are signed with, so anyone can check a downloaded package offline: the release
 * key, or with ?stage=dev the development key (decision 295).
 */
export const handler = route('signingKey', async ({ query }) => {
  const { pem, keyId } = await artefactService().publicKeyPem(query.stage ?? 'RELEASE');
  return { body: { publicKeyPem: pem, keyId, algorithm: SIGNATURE_ALGORITHM } };
});
