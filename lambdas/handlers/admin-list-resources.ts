import { resourceService } from '../composition';
import { route } from '../routes/admin';

export const handler = route('adminListResources', async () => {
  const list = await resourceService().listAll();
  return { body: { resources: JSON.stringify(list) } };
});
