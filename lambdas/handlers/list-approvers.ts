import { approversQuerySchema, packageIdParamSchema } from '../../shared/api/contracts/packages';
import { route } from '../composition-http';
import { packageService } from '../composition-packages';

export const handler = route(
  'listApprovers',
  { params: packageIdParamSchema, query: approversQuerySchema },
  async ({ params, query, user }) => {
    const r = await packageService().approvers(user!, params.id, query.signers === 'true');
    return {
      body: {
        approvers: JSON.stringify(r.approvers),
        ...(r.signers ? { signers: JSON.stringify(r.signers) } : {}),
      },
    };
  },
);
