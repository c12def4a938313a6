import { MSG } from '../../shared/messages';
import { packageServiceWithArtefacts } from '../composition-artefacts';
import { route } from '../routes/admin';

/**
 * DELETE /admin/packages: the spec's list of ids, or { ids, password, reason } — packages in flight are
 * deleted only with the admin's password and a reason (decision 196).
 */
export const handler = route('adminDeletePackages', async ({ body, user, sourceIp }) => {
  await packageServiceWithArtefacts().deletePackages(user, body, sourceIp);
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
