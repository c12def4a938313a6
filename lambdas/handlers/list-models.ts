import { stageParamSchema } from '../../shared/api/contracts/resources';
import { resources$ } from '../composition';
import { route } from '../middleware/http';

export const handler = route('listModels', { params: stageParamSchema }, async ({ params }) => {
  const list = await resources$().list('MODEL', params.stage);
  return { body: { resources: JSON.stringify(list) } };
});
