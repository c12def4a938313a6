import { packages$ } from '../composition-packages';
import { route } from '../middleware/http';

export const handler = route('listDeliveryPackages', {}, async () => ({
  body: { packages: JSON.stringify(await packages$().listDelivery()) },
}));
