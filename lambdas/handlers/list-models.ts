import { resources$ } from '../composition';
import { route } from '../middleware/resources-route';

export const handler = route('listModels', async ({ params }) => {
  const list = await resources$().list('MODEL', params.stage);
  return { body: { resources: JSON.stringify(list) } };
});
