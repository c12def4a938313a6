import { packages$ } from '../composition-packages';
import { route } from '../middleware/packages-route';

export const handler = route('attachDcc', async ({ params, user }) => ({
  body: { package: JSON.stringify(await packages$().attachDcc(user, params.id, params.dccId)) },
}));
