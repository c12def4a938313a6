import { approvalListParamSchema } from '../../shared/api/contracts/packages';
import { route } from '../composition-http';
import { packageService } from '../composition-packages';

export const handler = route(
  'listApprovalPackages',
  { params: approvalListParamSchema },
  async ({ params, user }) => ({
    body: { packages: JSON.stringify(await packageService().listApproval(user!, params.stage)) },
  }),
);
