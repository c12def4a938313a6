import { resourceServiceWithStorage } from '../composition-storage';
import { route } from '../routes/resources';

export const handler = route('abortResourceUpload', async ({ params, user }) => {
  await resourceServiceWithStorage().abortUpload(user, params.uploadId);
  return { statusCode: 200, body: { message: 'Upload cancelled' } };
});
