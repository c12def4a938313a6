import { MSG } from '../../shared/messages';
import { resourceService } from '../composition-storage';
import { route } from '../routes/admin';

export const handler = route('adminDeleteResources', async ({ body, user }) => {
  await resourceService().deleteResources(user, body);
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
