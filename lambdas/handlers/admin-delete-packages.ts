import '../composition-artefacts';
import { MSG } from '../../shared/messages';
import { packages$ } from '../composition-packages';
import { route } from '../middleware/admin-route';

export const handler = route('adminDeletePackages', async ({ body, user }) => {
  await packages$().deletePackages(user, body);
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
