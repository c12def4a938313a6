import { MSG } from '../../shared/messages';
import { packages$ } from '../composition-packages';
import { route } from '../middleware/packages-route';

export const handler = route('rejectSigning', async ({ params, body, user }) => {
  const pkg = await packages$().rejectSigning(user, params.id, body['rejection-reason']);
  return { body: { status: 'REJECTED', message: MSG.rejectionConfirmed, package: JSON.stringify(pkg) } };
});
