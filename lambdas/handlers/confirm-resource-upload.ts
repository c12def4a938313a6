import { confirmingResourceService } from '../composition-uploads';
import { route } from '../routes/resources';

export const handler = route('confirmResourceUpload', async ({ params, user }) => ({
  statusCode: 202,
  body: await confirmingResourceService().confirmUpload(user, params.uploadId),
}));
