import { resourceService } from '../composition';
import { route } from '../routes/resources';
import { wholeListText } from '../services/whole-list';

export const handler = route('listPatches', async ({ params }) => {
  const list = await resourceService().list('PATCH', params.stage);
  return { body: { resources: wholeListText(list, 'resources') } };
});
