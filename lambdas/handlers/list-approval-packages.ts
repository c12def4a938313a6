import { packages$ } from '../composition-packages';
import { route } from '../middleware/packages-route';

export const handler = route('listApprovalPackages', async ({ params, user }) => ({
  body: { packages: JSON.stringify(await packages$().listApproval(user, params.stage)) },
}));
