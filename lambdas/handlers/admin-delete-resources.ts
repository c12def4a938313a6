import '../composition-storage';
import { MSG } from '../../shared/messages';
import { resources$ } from '../composition';
import { route } from '../middleware/admin-route';

export const handler = route('adminDeleteResources', async ({ body, user }) => {
  await resources$().deleteResources(user, body);
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
