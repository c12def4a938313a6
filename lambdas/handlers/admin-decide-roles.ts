import { API_ERR } from '../../shared/messages';
import { loadUserServiceWithMail } from '../composition-mail';
import { route } from '../routes/identity';

/**
 * Grant (signed: proposes, or confirms another admin's proposal; decision 180) or refuse; the
 * answer keeps `users` and adds `outcomes`: per id PROPOSED, GRANTED or REFUSED.
 */
export const handler = route('adminDecideRoles', async ({ body, user, sourceIp }) => {
  const { users, outcomes } = await (await loadUserServiceWithMail()).decideRoles(user, body, sourceIp);
  return {
    body: { status: 'DECIDED', message: API_ERR.rolesDecided, users: JSON.stringify(users), outcomes },
  };
});
