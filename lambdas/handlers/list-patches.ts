import { stageParamSchema } from '../../shared/api/contracts/resources';
import { resourceService } from '../composition';
import { route } from '../composition-http';

export const handler = route('listPatches', { params: stageParamSchema }, async ({ params }) => {
  const list = await resourceService().list('PATCH', params.stage);
  return { body: { resources: JSON.stringify(list) } };
});
