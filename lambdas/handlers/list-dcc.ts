import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

export const handler = route('listDcc', async () => ({
  body: { dcc: JSON.stringify(await packageService().listDcc()) },
}));
