import { MSG } from '../../shared/messages';
import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

export const handler = route('rejectPackage', async ({ params, body, user, sourceIp }) => {
  const sig = { password: body.password, sourceIp, changesSeen: body.changesSeen };
  const pkg = await packageService().reject(user, params.id, body['rejection-reason'], sig);
  return { body: { status: 'REJECTED', message: MSG.rejectionConfirmed, package: JSON.stringify(pkg) } };
});
