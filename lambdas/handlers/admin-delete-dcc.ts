import { MSG } from '../../shared/messages';
import { packageService } from '../composition-packages';
import { route } from '../routes/admin';

export const handler = route('adminDeleteDcc', async ({ body, user }) => {
  await packageService().deleteDccs(user, body);
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
