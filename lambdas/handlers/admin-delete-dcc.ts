import { idListSchema } from '../../shared/api/contracts/common';
import { MSG } from '../../shared/messages';
import { route } from '../composition-http';
import { packageService } from '../composition-packages';

export const handler = route('adminDeleteDcc', { body: idListSchema }, async ({ body, user }) => {
  await packageService().deleteDccs(user!, body);
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
