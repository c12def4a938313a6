import { stageParamSchema } from '../../shared/api/contracts/resources';
import { resourceService } from '../composition';
import { route } from '../composition-http';

export const handler = route('listModels', { params: stageParamSchema }, async ({ params }) => {
  const list = await resourceService().list('MODEL', params.stage);
  return { body: { resources: JSON.stringify(list) } };
});
