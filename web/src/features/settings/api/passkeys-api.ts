import type { SignatureProof } from '@shared/api/contracts/packages';
import { callApi } from '@/lib/api-client/api-client';

/** Settings → Passkeys (decision 322). */

/** GET /passkeys: the caller's passkeys and whether their role signs only with one. */
export function listPasskeys() {
  return callApi('listPasskeys', {}, { handle: 'all', loader: false });
}

/** POST /passkeys/registration-options: the password confirms it (403 when wrong). */
export function registrationOptions(proof: SignatureProof) {
  return callApi('passkeyRegistrationOptions', { body: proof }, { handle: [400, 403, 409, 429] });
}

/** POST /passkeys: the browser's new credential of that challenge, with its name. */
export function addPasskey(ceremonyId: string, name: string, response: unknown) {
  return callApi(
    'addPasskey',
    { body: { ceremonyId, name, response: response as never } },
    { handle: [400, 409] },
  );
}

export function renamePasskey(passkeyId: string, name: string) {
  return callApi('renamePasskey', { params: { passkeyId }, body: { name } }, { handle: [400, 404] });
}

/** DELETE /passkeys/{id}: the other sessions end; the answer's token carries this one on. */
export function removePasskey(passkeyId: string, proof: SignatureProof) {
  return callApi(
    'removePasskey',
    { params: { passkeyId }, body: proof },
    { handle: [400, 403, 404, 409, 429] },
  );
}
