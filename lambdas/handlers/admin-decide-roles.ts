import '../composition-mail';
import { API_ERR } from '../../shared/messages';
import { users$ } from '../composition';
import { route } from '../middleware/identity-route';

export const handler = route('adminDecideRoles', async ({ body, user }) => {
  const users = await (await users$()).decideRoles(user, body);
  return { body: { status: 'DECIDED', message: API_ERR.rolesDecided, users: JSON.stringify(users) } };
});
