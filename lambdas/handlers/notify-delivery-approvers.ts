import { MSG } from '../../shared/messages';
import { packages$ } from '../composition-packages';
import { route } from '../middleware/packages-route';

/** Deliver, or re-deliver after a delivery rejection: the same call with a new set of delivery approvers. */
export const handler = route('notifyDeliveryApprovers', async ({ params, body, user }) => {
  const pkg = await packages$().deliver(user, params.id, body);
  return { body: { status: 'NOTIFIED', message: MSG.notified, package: JSON.stringify(pkg) } };
});
