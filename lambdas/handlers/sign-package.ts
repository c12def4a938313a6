import { packageIdParamSchema } from '../../shared/api/contracts/packages';
import { packageService } from '../composition-artefacts';
import { route } from '../composition-http';

export const handler = route('signPackage', { params: packageIdParamSchema }, async ({ params, user }) => {
  const pkg = await packageService().sign(user!, params.id);
  return { body: { outcome: 'SIGNED', mLifePath: pkg.mLifePath, package: JSON.stringify(pkg) } };
});
