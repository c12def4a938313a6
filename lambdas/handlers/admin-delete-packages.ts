import { MSG } from '../../shared/messages';
import { packageService } from '../composition-artefacts';
import { route } from '../routes/admin';

export const handler = route('adminDeletePackages', async ({ body, user }) => {
  await packageService().deletePackages(user, body);
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
