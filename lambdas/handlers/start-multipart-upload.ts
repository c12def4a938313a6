import { resourceService } from '../composition-storage';
import { route } from '../routes/resources';

export const handler = route('startMultipartUpload', async ({ body, user }) => {
  const started = await resourceService().startMultipartUpload(user, body);
  return { statusCode: 201, body: started };
});
