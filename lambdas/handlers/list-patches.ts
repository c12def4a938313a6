import { stageParamSchema } from '../../shared/api/contracts/resources';
import { resources$ } from '../composition';
import { route } from '../middleware/http';

export const handler = route('listPatches', { params: stageParamSchema }, async ({ params }) => {
  const list = await resources$().list('PATCH', params.stage);
  return { body: { resources: JSON.stringify(list) } };
});
