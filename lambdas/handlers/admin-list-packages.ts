import { packages$ } from '../composition-packages';
import { route } from '../middleware/http';

export const handler = route('adminListPackages', {}, async () => ({
  body: { packages: JSON.stringify(await packages$().listAll()) },
}));
