import { idListSchema } from '../../shared/api/contracts/common';
import { MSG } from '../../shared/messages';
import { packageService } from '../composition-artefacts';
import { route } from '../composition-http';

export const handler = route('adminDeletePackages', { body: idListSchema }, async ({ body, user }) => {
  await packageService().deletePackages(user!, body);
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
