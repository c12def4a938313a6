import * as z from 'zod';
import { MSG } from '../../shared/messages';
import { route } from '../composition-http';
import { resourceService } from '../composition-storage';

const params = z.object({ uploadId: z.string().min(1).max(64) });

export const handler = route('confirmResourceUpload', { params }, async ({ params, user }) => {
  const resource = await resourceService().confirmUpload(user!, params.uploadId);
  return { statusCode: 201, body: { resource: JSON.stringify(resource), message: MSG.uploaded } };
});
