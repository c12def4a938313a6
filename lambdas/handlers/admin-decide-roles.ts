import { API_ERR } from '../../shared/messages';
import { loadUserService } from '../composition-mail';
import { route } from '../routes/identity';

export const handler = route('adminDecideRoles', async ({ body, user }) => {
  const users = await (await loadUserService()).decideRoles(user, body);
  return { body: { status: 'DECIDED', message: API_ERR.rolesDecided, users: JSON.stringify(users) } };
});
