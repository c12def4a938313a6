import { MSG } from '../../shared/messages';
import { resourceServiceWithStorage } from '../composition-storage';
import { route } from '../routes/admin';

export const handler = route('adminDeleteResources', async ({ body, user }) => {
  await resourceServiceWithStorage().deleteResources(user, body);
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
