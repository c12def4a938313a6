import { packageIdParamSchema } from '../../shared/api/contracts/packages';
import { route } from '../composition-http';
import { packageService } from '../composition-packages';

export const handler = route('getHeader', { params: packageIdParamSchema }, async ({ params }) => ({
  body: { header: JSON.stringify(await packageService().getHeader(params.id)) },
}));
