import { resourceService } from '../composition';
import { route } from '../routes/resources';

export const handler = route('listModels', async ({ params }) => {
  const list = await resourceService().list('MODEL', params.stage);
  return { body: { resources: JSON.stringify(list) } };
});
