import { packageService } from '../composition-artefacts';
import { route } from '../routes/packages';

export const handler = route('signPackage', async ({ params, body, user, sourceIp }) => {
  const pkg = await packageService().sign(user, params.id, { password: body.password, sourceIp });
  return { body: { outcome: 'SIGNED', mLifePath: pkg.mLifePath, package: JSON.stringify(pkg) } };
});
