import { resources$ } from '../composition';
import { route } from '../middleware/resources-route';

export const handler = route('listPatches', async ({ params }) => {
  const list = await resources$().list('PATCH', params.stage);
  return { body: { resources: JSON.stringify(list) } };
});
