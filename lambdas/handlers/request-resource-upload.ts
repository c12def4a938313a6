import '../composition-storage';
import { requestUploadSchema } from '../../shared/api/contracts/resources';
import { resources$ } from '../composition';
import { route } from '../middleware/http';

export const handler = route(
  'requestResourceUpload',
  { body: requestUploadSchema, maxBodyBytes: 8 * 1024 },
  async ({ body, user }) => {
    const urls = await resources$().requestUpload(user!, body);
    return { statusCode: 201, body: urls };
  },
);
