import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

export const handler = route('listApprovalPackages', async ({ params, user }) => ({
  body: { packages: JSON.stringify(await packageService().listApproval(user, params.stage)) },
}));
