import { confirmingResourceService } from '../composition-uploads';
import { route } from '../routes/resources';

export const handler = route('completeMultipartUpload', async ({ params, body, user }) => ({
  statusCode: 202,
  body: await confirmingResourceService().completeMultipartUpload(user, params.uploadId, body.parts),
}));
