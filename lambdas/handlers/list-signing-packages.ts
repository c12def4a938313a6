import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

export const handler = route('listSigningPackages', async ({ params, user }) => ({
  body: { packages: JSON.stringify(await packageService().listSigning(user, params.stage)) },
}));
