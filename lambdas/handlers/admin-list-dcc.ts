import { packages$ } from '../composition-packages';
import { route } from '../middleware/admin-route';

export const handler = route('adminListDcc', async () => ({
  body: { dcc: JSON.stringify(await packages$().listDcc()) },
}));
