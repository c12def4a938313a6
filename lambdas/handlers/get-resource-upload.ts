import { resourceService } from '../composition';
import { route } from '../routes/resources';

export const handler = route('getResourceUpload', async ({ params, user }) => ({
  statusCode: 200,
  body: await resourceService().uploadStatus(user, params.uploadId),
}));
