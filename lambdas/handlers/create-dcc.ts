import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

export const handler = route('createDcc', async ({ body, user }) => {
  const dcc = await packageService().createDcc(user, body);
  return { statusCode: 201, body: { dccUuid: dcc.id, dcc: JSON.stringify(dcc) } };
});
