import { packages$ } from '../composition-packages';
import { route } from '../middleware/packages-route';

export const handler = route('listDcc', async () => ({
  body: { dcc: JSON.stringify(await packages$().listDcc()) },
}));
