import { packageListParamSchema } from '../../shared/api/contracts/packages';
import { packages$ } from '../composition-packages';
import { route } from '../middleware/http';

export const handler = route('listPackages', { params: packageListParamSchema }, async ({ params }) => ({
  body: { packages: JSON.stringify(await packages$().listStage(params.stage)) },
}));
