import { BadRequestError } from '../../shared/domain/errors';
import { PACKAGE_ERR } from '../../shared/domain/package-texts';
import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

export const handler = route('updateHeader', async ({ params, body, user }) => {
  let submitted: unknown = body.header;
  if (typeof submitted === 'string') {
    try {
      submitted = JSON.parse(submitted);
    } catch {
      throw new BadRequestError(PACKAGE_ERR.headerNotJson);
    }
  }
  const header = await packageService().updateHeader(user, params.id, submitted);
  return { body: { header: JSON.stringify(header) } };
});
