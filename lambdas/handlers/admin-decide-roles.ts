import { decideRolesSchema } from '../../shared/api/contracts/user';
import { API_ERR } from '../../shared/messages';
import { route } from '../composition-http';
import { loadUserService } from '../composition-mail';

export const handler = route('adminDecideRoles', { body: decideRolesSchema }, async ({ body, user }) => {
  const users = await (await loadUserService()).decideRoles(user!, body);
  return { body: { status: 'DECIDED', message: API_ERR.rolesDecided, users: JSON.stringify(users) } };
});
