import { resourceService } from '../composition';
import { route } from '../routes/resources';
import { wholeListText } from '../services/whole-list';

export const handler = route('listModels', async ({ params }) => {
  const list = await resourceService().list('MODEL', params.stage);
  return { body: { resources: wholeListText(list, 'resources') } };
});
