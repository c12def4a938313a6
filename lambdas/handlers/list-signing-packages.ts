import { packages$ } from '../composition-packages';
import { route } from '../middleware/packages-route';

export const handler = route('listSigningPackages', async ({ params, user }) => ({
  body: { packages: JSON.stringify(await packages$().listSigning(user, params.stage)) },
}));
