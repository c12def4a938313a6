import { resources$ } from '../composition';
import { route } from '../middleware/http';

export const handler = route('adminListResources', async () => {
  const list = await resources$().listAll();
  return { body: { resources: JSON.stringify(list) } };
});
