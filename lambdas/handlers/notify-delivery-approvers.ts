import { proofOf } from '../../shared/api/contracts/packages';
import { MSG } from '../../shared/messages';
import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

/** Deliver, or re-deliver after a delivery rejection: the same call with a new set of delivery approvers. */
export const handler = route('notifyDeliveryApprovers', async ({ params, body, user, sourceIp }) => {
  const { password: _p, reauthTicket: _t, passkey: _k, ...req } = body;
  const pkg = await packageService().deliver(user, params.id, req, { proof: proofOf(body), sourceIp });
  return { body: { status: 'NOTIFIED', message: MSG.notified, package: JSON.stringify(pkg) } };
});
