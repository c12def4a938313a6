import { MSG } from '../../shared/messages';
import { resourceService } from '../composition-storage';
import { route } from '../routes/resources';

export const handler = route('confirmResourceUpload', async ({ params, user }) => {
  const resource = await resourceService().confirmUpload(user, params.uploadId);
  return { statusCode: 201, body: { resource: JSON.stringify(resource), message: MSG.uploaded } };
});
