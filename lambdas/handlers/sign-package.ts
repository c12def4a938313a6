import '../composition-artefacts';
import { packages$ } from '../composition-packages';
import { route } from '../middleware/packages-route';

export const handler = route('signPackage', async ({ params, user }) => {
  const pkg = await packages$().sign(user, params.id);
  return { body: { outcome: 'SIGNED', mLifePath: pkg.mLifePath, package: JSON.stringify(pkg) } };
});
