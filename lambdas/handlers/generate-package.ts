import * as z from 'zod';
import { generatePackageSchema } from '../../shared/api/contracts/packages';
import { packages$ } from '../composition-packages';
import { route } from '../middleware/http';

export const handler = route(
  'generatePackage',
  { params: z.object({ id: z.string().min(1).max(64) }), body: generatePackageSchema },
  async ({ params, body, user }) => {
    const pkg = await packages$().generate(user!, params.id, body);
    return { statusCode: 201, body: { package: JSON.stringify(pkg) } };
  },
);
