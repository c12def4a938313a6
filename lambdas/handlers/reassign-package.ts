import { proofOf } from '../../shared/api/contracts/packages';
import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

/** The initiator or an admin gives the place of someone who left their role to another holder of it (decision 351). */
export const handler = route('reassignPackage', async ({ params, body, user, sourceIp }) => {
  const { password: _p, reauthTicket: _t, passkey: _k, ...req } = body;
  const pkg = await packageService().reassign(user, params.id, req, { proof: proofOf(body), sourceIp });
  return { body: { message: 'The place was reassigned', package: JSON.stringify(pkg) } };
});
