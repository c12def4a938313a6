import { resourceService } from '../composition-storage';
import { route } from '../routes/resources';

export const handler = route('presignUploadParts', async ({ params, body, user }) => {
  const urls = await resourceService().presignUploadParts(user, params.uploadId, body.partNumbers);
  return { statusCode: 200, body: urls };
});
