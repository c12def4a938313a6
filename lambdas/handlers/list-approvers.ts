import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

export const handler = route('listApprovers', async ({ params, query, user }) => {
  const r = await packageService().approvers(user, params.id, query.signers === 'true');
  return {
    body: {
      approvers: JSON.stringify(r.approvers),
      ...(r.signers ? { signers: JSON.stringify(r.signers) } : {}),
      uploader: r.uploader,
    },
  };
});
