import { packageIdParamSchema } from '../../shared/api/contracts/packages';
import { packages$ } from '../composition-packages';
import { route } from '../middleware/http';

export const handler = route('getHeader', { params: packageIdParamSchema }, async ({ params }) => ({
  body: { header: JSON.stringify(await packages$().getHeader(params.id)) },
}));
