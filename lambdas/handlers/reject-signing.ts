import { packageIdParamSchema, rejectSchema } from '../../shared/api/contracts/packages';
import { MSG } from '../../shared/messages';
import { route } from '../composition-http';
import { packageService } from '../composition-packages';

export const handler = route(
  'rejectSigning',
  { params: packageIdParamSchema, body: rejectSchema },
  async ({ params, body, user }) => {
    const pkg = await packageService().rejectSigning(user!, params.id, body['rejection-reason']);
    return { body: { status: 'REJECTED', message: MSG.rejectionConfirmed, package: JSON.stringify(pkg) } };
  },
);
