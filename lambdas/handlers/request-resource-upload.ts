import { requestUploadSchema } from '../../shared/api/contracts/resources';
import { route } from '../composition-http';
import { resourceService } from '../composition-storage';

export const handler = route(
  'requestResourceUpload',
  { body: requestUploadSchema, maxBodyBytes: 8 * 1024 },
  async ({ body, user }) => {
    const urls = await resourceService().requestUpload(user!, body);
    return { statusCode: 201, body: urls };
  },
);
