import { artefactService } from '../composition-artefacts';
import { route } from '../routes/packages';

/**
 * The same public key as GET /signing-key, as a PEM file: `curl -o release-key.pem
 * .../dev/signing-key.pem?stage=release` gives the file `npm run verify -- --key` and openssl read;
 * ?stage=dev the development key (decision 295); no query: the release key.
 */
export const handler = route('signingKeyPem', async ({ query }) => {
  const { pem } = await artefactService().publicKeyPem(query.stage ?? 'RELEASE');
  return { body: pem.endsWith('\n') ? pem : `${pem}\n` };
});
