import { idListSchema } from '../../shared/api/contracts/common';
import { MSG } from '../../shared/messages';
import { users$ } from '../composition';
import { route } from '../middleware/http';

export const handler = route('adminDeleteUsers', { body: idListSchema }, async ({ body, user }) => {
  await (await users$()).deleteUsers(user!, body);
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
