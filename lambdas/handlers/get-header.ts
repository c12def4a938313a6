import { packages$ } from '../composition-packages';
import { route } from '../middleware/packages-route';

export const handler = route('getHeader', async ({ params }) => ({
  body: { header: JSON.stringify(await packages$().getHeader(params.id)) },
}));
