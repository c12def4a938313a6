import { resourceServiceWithStorage } from '../composition-storage';
import { route } from '../routes/resources';

export const handler = route('requestResourceUpload', async ({ body, user }) => {
  const urls = await resourceServiceWithStorage().requestUpload(user, body);
  return { statusCode: 201, body: urls };
});
