import { packageService } from '../composition-packages';
import { route } from '../routes/resources';

export const handler = route('generatePackage', async ({ params, body, user }) => {
  const pkg = await packageService().generate(user, params.id, body);
  return { statusCode: 201, body: { package: JSON.stringify(pkg) } };
});
