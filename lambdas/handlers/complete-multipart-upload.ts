import { MSG } from '../../shared/messages';
import { resourceService } from '../composition-storage';
import { route } from '../routes/resources';

export const handler = route('completeMultipartUpload', async ({ params, body, user }) => {
  const resource = await resourceService().completeMultipartUpload(user, params.uploadId, body.parts);
  return { statusCode: 201, body: { resource: JSON.stringify(resource), message: MSG.uploaded } };
});
