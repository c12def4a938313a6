import { MSG } from '../../shared/messages';
import { packages$ } from '../composition-packages';
import { route } from '../middleware/packages-route';

export const handler = route('notifyApprovers', async ({ params, body, user }) => {
  const pkg = await packages$().notify(user, params.id, body);
  return { body: { status: 'NOTIFIED', message: MSG.notified, package: JSON.stringify(pkg) } };
});
