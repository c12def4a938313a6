import { proofOf } from '../../shared/api/contracts/packages';
import { loadUserService } from '../composition';
import { route } from '../routes/passkeys';

/** The account's sessions end with the passkey; the caller goes on with the token in the answer. */
export const handler = route('removePasskey', async ({ params, body, user, sourceIp }) => {
  const { token } = await (await loadUserService()).removePasskey(
    user,
    params.passkeyId,
    proofOf(body),
    sourceIp,
  );
  return {
    body: { status: 'REMOVED', message: 'The passkey was removed; your other sessions ended.', token },
  };
});
