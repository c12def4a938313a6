import '../composition-storage';
import { MSG } from '../../shared/messages';
import { resources$ } from '../composition';
import { route } from '../middleware/resources-route';

export const handler = route('confirmResourceUpload', async ({ params, user }) => {
  const resource = await resources$().confirmUpload(user, params.uploadId);
  return { statusCode: 201, body: { resource: JSON.stringify(resource), message: MSG.uploaded } };
});
