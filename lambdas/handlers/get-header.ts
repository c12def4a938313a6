import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

export const handler = route('getHeader', async ({ params }) => ({
  body: { header: JSON.stringify(await packageService().getHeader(params.id)) },
}));
