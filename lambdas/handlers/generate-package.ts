import { packages$ } from '../composition-packages';
import { route } from '../middleware/resources-route';

export const handler = route('generatePackage', async ({ params, body, user }) => {
  const pkg = await packages$().generate(user, params.id, body);
  return { statusCode: 201, body: { package: JSON.stringify(pkg) } };
});
