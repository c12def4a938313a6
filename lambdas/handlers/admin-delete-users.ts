import { idListSchema } from '../../shared/api/contracts/common';
import { MSG } from '../../shared/messages';
import { loadUserService } from '../composition';
import { route } from '../composition-http';

export const handler = route('adminDeleteUsers', { body: idListSchema }, async ({ body, user }) => {
  await (await loadUserService()).deleteUsers(user!, body);
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
