import { MSG } from '../../shared/messages';
import { packageServiceWithArtefacts } from '../composition-artefacts';
import { route } from '../routes/admin';

/**
 * DELETE /admin/packages: the spec's list of ids, or { ids, password, reason } — packages in flight are
 * deleted only with the admin's password and a reason (decision 196); a DELIVERED package's record
 * takes two admins (decision 336): the first signed call proposes (202), a second admin's confirms.
 */
export const handler = route('adminDeletePackages', async ({ body, user, sourceIp }) => {
  const r = await packageServiceWithArtefacts().deletePackages(user, body, sourceIp);
  if (r.outcome === 'PROPOSED')
    return { statusCode: 202, body: { status: 'PROPOSED', message: r.message ?? MSG.deletionProposed } };
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
