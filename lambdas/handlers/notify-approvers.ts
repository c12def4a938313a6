import { notifySchema, packageIdParamSchema } from '../../shared/api/contracts/packages';
import { MSG } from '../../shared/messages';
import { route } from '../composition-http';
import { packageService } from '../composition-packages';

export const handler = route(
  'notifyApprovers',
  { params: packageIdParamSchema, body: notifySchema },
  async ({ params, body, user }) => {
    const pkg = await packageService().notify(user!, params.id, body);
    return { body: { status: 'NOTIFIED', message: MSG.notified, package: JSON.stringify(pkg) } };
  },
);
