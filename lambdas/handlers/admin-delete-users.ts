import { MSG } from '../../shared/messages';
import { loadUserServiceWithMail } from '../composition-mail';
import { route } from '../routes/identity';

/**
 * DELETE /admin/users: the spec's list of ids, or { ids, password, reason } — an administrator's account
 * takes two admins (decision 336): the first signed call proposes (202), a second admin's confirms.
 */
export const handler = route('adminDeleteUsers', async ({ body, user, sourceIp }) => {
  const r = await (await loadUserServiceWithMail()).deleteUsers(user, body, sourceIp);
  if (r.outcome === 'PROPOSED')
    return { statusCode: 202, body: { status: 'PROPOSED', message: r.message ?? MSG.deletionProposed } };
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
