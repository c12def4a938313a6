import { MSG } from '../../shared/messages';
import { loadUserService } from '../composition';
import { route } from '../routes/identity';

export const handler = route('adminDeleteUsers', async ({ body, user }) => {
  await (await loadUserService()).deleteUsers(user, body);
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
