import * as z from 'zod';
import { generatePackageSchema } from '../../shared/api/contracts/packages';
import { route } from '../composition-http';
import { packageService } from '../composition-packages';

export const handler = route(
  'generatePackage',
  { params: z.object({ id: z.string().min(1).max(64) }), body: generatePackageSchema },
  async ({ params, body, user }) => {
    const pkg = await packageService().generate(user!, params.id, body);
    return { statusCode: 201, body: { package: JSON.stringify(pkg) } };
  },
);
