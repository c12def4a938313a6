import { resourceServiceWithStorage } from '../composition-storage';
import { route } from '../routes/resources';

export const handler = route('listUploadParts', async ({ params, user }) => {
  const parts = await resourceServiceWithStorage().listUploadParts(user, params.uploadId);
  return { statusCode: 200, body: parts };
});
