import { resources$ } from '../composition';
import { route } from '../middleware/admin-route';

export const handler = route('adminListResources', async () => {
  const list = await resources$().listAll();
  return { body: { resources: JSON.stringify(list) } };
});
