import { attachDccParamSchema } from '../../shared/api/contracts/packages';
import { packages$ } from '../composition-packages';
import { route } from '../middleware/http';

export const handler = route('attachDcc', { params: attachDccParamSchema }, async ({ params, user }) => ({
  body: { package: JSON.stringify(await packages$().attachDcc(user!, params.id, params.dccId)) },
}));
