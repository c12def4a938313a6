import { proofOf } from '../../shared/api/contracts/packages';
import { MSG } from '../../shared/messages';
import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

export const handler = route('rejectSigning', async ({ params, body, user, sourceIp }) => {
  const sig = { proof: proofOf(body), sourceIp, changesSeen: body.changesSeen };
  const pkg = await packageService().rejectSigning(user, params.id, body['rejection-reason'], sig);
  return { body: { status: 'REJECTED', message: MSG.rejectionConfirmed, package: JSON.stringify(pkg) } };
});
