import { MSG } from '../../shared/messages';
import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

export const handler = route('notifyApprovers', async ({ params, body, user }) => {
  const pkg = await packageService().notify(user, params.id, body);
  return { body: { status: 'NOTIFIED', message: MSG.notified, package: JSON.stringify(pkg) } };
});
