import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

export const handler = route('attachDcc', async ({ params, user }) => ({
  body: { package: JSON.stringify(await packageService().attachDcc(user, params.id, params.dccId)) },
}));
