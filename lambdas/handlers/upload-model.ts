import { stageParamSchema, uploadQuerySchema } from '../../shared/api/contracts/resources';
import { MSG } from '../../shared/messages';
import { route } from '../composition-http';
import { resourceService } from '../composition-storage';
import { readMultipart } from '../middleware/multipart';

// multipart/form-data arrives as a raw (base64) body: the handler reads it, not the JSON middleware
export const handler = route(
  'uploadModel',
  { raw: true, params: stageParamSchema, query: uploadQuerySchema },
  async ({ params, query, event, user }) => {
    const service = resourceService();
    const form = await readMultipart(event, service.partLimits());
    const resource = await service.upload(user!, {
      type: 'MODEL',
      stage: params.stage,
      name: query.name,
      resourceFile: form.files.resourceFile,
      metadataFile: form.files.metadataFile,
    });
    return { statusCode: 201, body: { resource: JSON.stringify(resource), message: MSG.uploaded } };
  },
);
