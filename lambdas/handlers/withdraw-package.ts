import { proofOf } from '../../shared/api/contracts/packages';
import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

/** The initiator or an admin withdraws a package from approval back to an editable draft (decision 351). */
export const handler = route('withdrawPackage', async ({ params, body, user, sourceIp }) => {
  const pkg = await packageService().withdraw(user, params.id, body.reason, {
    proof: proofOf(body),
    sourceIp,
  });
  return { body: { message: 'The package is a draft again', package: JSON.stringify(pkg) } };
});
