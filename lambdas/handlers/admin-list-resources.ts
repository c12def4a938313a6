import { resourceService } from '../composition';
import { route } from '../routes/admin';
import { wholeListText } from '../services/whole-list';

export const handler = route('adminListResources', async () => {
  const list = await resourceService().listAll();
  return { body: { resources: wholeListText(list, 'resources') } };
});
