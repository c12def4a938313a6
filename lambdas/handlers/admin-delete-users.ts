import { MSG } from '../../shared/messages';
import { users$ } from '../composition';
import { route } from '../middleware/identity-route';

export const handler = route('adminDeleteUsers', async ({ body, user }) => {
  await (await users$()).deleteUsers(user, body);
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
