import '../composition-storage';
import { idListSchema } from '../../shared/api/contracts/common';
import { MSG } from '../../shared/messages';
import { resources$ } from '../composition';
import { route } from '../middleware/http';

export const handler = route('adminDeleteResources', { body: idListSchema }, async ({ body, user }) => {
  await resources$().deleteResources(user!, body);
  return { body: { status: 'DELETED', message: MSG.deleted } };
});
