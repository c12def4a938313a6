import { attachDccParamSchema } from '../../shared/api/contracts/packages';
import { route } from '../composition-http';
import { packageService } from '../composition-packages';

export const handler = route('attachDcc', { params: attachDccParamSchema }, async ({ params, user }) => ({
  body: { package: JSON.stringify(await packageService().attachDcc(user!, params.id, params.dccId)) },
}));
