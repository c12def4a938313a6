import type { ResourceType } from '../../shared/api/contracts/resources';
import { MSG } from '../../shared/messages';
import { resourceServiceWithStorage } from '../composition-storage';
import { readMultipart } from '../middleware/multipart';
import { route } from '../routes/resources';

/** POST /resources/{patch|model}/{stage}: the two rows differ only in the resource type (upload-model.ts). */
export function uploadHandler(routeId: 'uploadPatch' | 'uploadModel', type: ResourceType) {
  // multipart/form-data arrives as a raw (base64) body: the handler reads it, not the JSON middleware
  return route(routeId, async ({ params, query, event, user }) => {
    const service = resourceServiceWithStorage();
    const form = await readMultipart(event, service.partLimits());
    const resource = await service.upload(user, {
      type,
      stage: params.stage,
      name: query.name,
      resourceFile: form.files.resourceFile,
      metadataFile: form.files.metadataFile,
    });
    return { statusCode: 201, body: { resource: JSON.stringify(resource), message: MSG.uploaded } };
  });
}

export const handler = uploadHandler('uploadPatch', 'PATCH');
