import { packageService } from '../composition-artefacts';
import { route } from '../routes/packages';

export const handler = route('signPackage', async ({ params, user }) => {
  const pkg = await packageService().sign(user, params.id);
  return { body: { outcome: 'SIGNED', mLifePath: pkg.mLifePath, package: JSON.stringify(pkg) } };
});
