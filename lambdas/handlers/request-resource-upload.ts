import '../composition-storage';
import { resources$ } from '../composition';
import { route } from '../middleware/resources-route';

export const handler = route('requestResourceUpload', async ({ body, user }) => {
  const urls = await resources$().requestUpload(user, body);
  return { statusCode: 201, body: urls };
});
