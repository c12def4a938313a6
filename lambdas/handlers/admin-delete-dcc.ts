import { MSG } from '../../shared/messages';
import { packages$ } from '../composition-packages';
import { route } from '../middleware/admin-route';

export const handler = route('adminDeleteDcc', async ({ body, user }) => {
  await packages$().deleteDccs(user, body);
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
