import { packageService } from '../composition-packages';
import { route } from '../routes/admin';

export const handler = route('adminListDcc', async () => ({
  body: { dcc: JSON.stringify(await packageService().listDcc()) },
}));
