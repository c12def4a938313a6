import { route } from '../composition-http';
import { packageService } from '../composition-packages';

export const handler = route('listDcc', {}, async () => ({
  body: { dcc: JSON.stringify(await packageService().listDcc()) },
}));
