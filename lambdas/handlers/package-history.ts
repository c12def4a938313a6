import { packageIdParamSchema } from '../../shared/api/contracts/packages';
import { packages$ } from '../composition-packages';
import { route } from '../middleware/http';

export const handler = route('packageHistory', { params: packageIdParamSchema }, async ({ params }) => ({
  body: { history: JSON.stringify(await packages$().history(params.id)) },
}));
