import { idListSchema } from '../../shared/api/contracts/common';
import { MSG } from '../../shared/messages';
import { route } from '../composition-http';
import { resourceService } from '../composition-storage';

export const handler = route('adminDeleteResources', { body: idListSchema }, async ({ body, user }) => {
  await resourceService().deleteResources(user!, body);
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
