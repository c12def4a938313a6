import { resourceServiceWithStorage } from '../composition-storage';
import { route } from '../routes/resources';

export const handler = route('presignUploadParts', async ({ params, body, user }) => {
  const urls = await resourceServiceWithStorage().presignUploadParts(user, params.uploadId, body.partNumbers);
  return { statusCode: 200, body: urls };
});
