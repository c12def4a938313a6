import { proofOf } from '../../shared/api/contracts/packages';
import { MSG } from '../../shared/messages';
import { packageServiceWithArtefacts } from '../composition-artefacts';
import { route } from '../routes/packages';

/**
 * Outcomes: DELIVERED 200 with mLifePath, WAITING_FOR_APPROVALS 202; the last vote reads the stored package
 * file to check it (decision 302), hence the artefact store.
 */
export const handler = route('approveDelivery', async ({ params, body, user, sourceIp }) => {
  const sig = { proof: proofOf(body), sourceIp, changesSeen: body.changesSeen };
  const { outcome, pkg } = await packageServiceWithArtefacts().approveDelivery(user, params.id, sig);
  if (outcome === 'WAITING_FOR_APPROVALS') {
    return {
      statusCode: 202,
      body: { outcome, message: MSG.approvedWaiting, package: JSON.stringify(pkg) },
    };
  }
  return { body: { outcome, mLifePath: pkg.mLifePath, package: JSON.stringify(pkg) } };
});
