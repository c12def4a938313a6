import { resourceServiceWithStorage } from '../composition-storage';
import { route } from '../routes/resources';

export const handler = route('startMultipartUpload', async ({ body, user }) => {
  const started = await resourceServiceWithStorage().startMultipartUpload(user, body);
  return { statusCode: 201, body: started };
});
