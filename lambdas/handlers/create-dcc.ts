import { createDccSchema } from '../../shared/api/contracts/dcc';
import { route } from '../composition-http';
import { packageService } from '../composition-packages';

export const handler = route('createDcc', { body: createDccSchema }, async ({ body, user }) => {
  const dcc = await packageService().createDcc(user!, body);
  return { statusCode: 201, body: { dccUuid: dcc.id, dcc: JSON.stringify(dcc) } };
});
