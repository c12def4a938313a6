import { resourceService } from '../composition';
import { route } from '../routes/resources';

export const handler = route('listPatches', async ({ params }) => {
  const list = await resourceService().list('PATCH', params.stage);
  return { body: { resources: JSON.stringify(list) } };
});
