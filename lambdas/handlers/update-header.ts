import { headerBodySchema, packageIdParamSchema } from '../../shared/api/contracts/packages';
import { BadRequestError } from '../../shared/domain/errors';
import { route } from '../composition-http';
import { packageService } from '../composition-packages';

export const handler = route(
  'updateHeader',
  { params: packageIdParamSchema, body: headerBodySchema },
  async ({ params, body, user }) => {
    let submitted: unknown = body.header;
    if (typeof submitted === 'string') {
      try {
        submitted = JSON.parse(submitted);
      } catch {
        throw new BadRequestError('header is not valid JSON text');
      }
    }
    const header = await packageService().updateHeader(user!, params.id, submitted);
    return { body: { header: JSON.stringify(header) } };
  },
);
