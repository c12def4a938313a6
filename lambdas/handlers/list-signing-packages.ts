import { packageListParamSchema } from '../../shared/api/contracts/packages';
import { route } from '../composition-http';
import { packageService } from '../composition-packages';

export const handler = route(
  'listSigningPackages',
  { params: packageListParamSchema },
  async ({ params, user }) => ({
    body: { packages: JSON.stringify(await packageService().listSigning(user!, params.stage)) },
  }),
);
