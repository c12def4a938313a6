import { packages$ } from '../composition-packages';
import { route } from '../middleware/http';

export const handler = route('attachDcc', async ({ params, user }) => ({
  body: { package: JSON.stringify(await packages$().attachDcc(user, params.id, params.dccId)) },
}));
