import { packages$ } from '../composition-packages';
import { route } from '../middleware/packages-route';

export const handler = route('listApprovers', async ({ params, query, user }) => {
  const r = await packages$().approvers(user, params.id, query.signers === 'true');
  return {
    body: {
      approvers: JSON.stringify(r.approvers),
      ...(r.signers ? { signers: JSON.stringify(r.signers) } : {}),
    },
  };
});
