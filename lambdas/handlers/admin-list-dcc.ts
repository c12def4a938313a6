import { packageService } from '../composition-packages';
import { route } from '../routes/admin';
import { wholeListText } from '../services/whole-list';

export const handler = route('adminListDcc', async () => ({
  body: { dcc: wholeListText(await packageService().listDcc(), 'DCCs') },
}));
