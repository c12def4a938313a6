import { MSG } from '../../shared/messages';
import { packages$ } from '../composition-packages';
import { route } from '../middleware/packages-route';

export const handler = route('rejectPackage', async ({ params, body, user }) => {
  const pkg = await packages$().reject(user, params.id, body['rejection-reason']);
  return { body: { status: 'REJECTED', message: MSG.rejectionConfirmed, package: JSON.stringify(pkg) } };
});
