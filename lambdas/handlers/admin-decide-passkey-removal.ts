import { proofOf } from '../../shared/api/contracts/packages';
import { loadUserService } from '../composition';
import { route } from '../routes/passkeys';

/** Two admins (decision 323): the first call proposes the removal, a second admin's confirms it. */
export const handler = route('adminDecidePasskeyRemoval', async ({ params, body, user, sourceIp }) => {
  const r = await (await loadUserService()).decidePasskeyRemoval(
    user,
    params.userId,
    params.passkeyId,
    { proof: proofOf(body), reason: body.reason },
    sourceIp,
  );
  const message =
    r.outcome === 'PROPOSED'
      ? 'Removal proposed: the passkey keeps working until a second administrator confirms it.'
      : 'The passkey was removed; the sessions of the account ended.';
  return { body: { outcome: r.outcome, message, passkeys: r.passkeys } };
});
