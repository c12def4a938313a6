import { artefactService } from '../composition-artefacts';
import { route } from '../routes/packages';

/**
 * The same public key as GET /signing-key, as a PEM file (issue 25): `curl -o portal-key.pem
 * .../dev/signing-key.pem` gives the file `npm run verify -- --key` and openssl read.
 */
export const handler = route('signingKeyPem', async () => {
  const { pem } = await artefactService().publicKeyPem();
  return { body: pem.endsWith('\n') ? pem : `${pem}\n` };
});
