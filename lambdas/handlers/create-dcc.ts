import { packages$ } from '../composition-packages';
import { route } from '../middleware/packages-route';

export const handler = route('createDcc', async ({ body, user }) => {
  const dcc = await packages$().createDcc(user, body);
  return { statusCode: 201, body: { dccUuid: dcc.id, dcc: JSON.stringify(dcc) } };
});
