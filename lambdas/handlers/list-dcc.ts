import { packageService } from '../composition-packages';
import { route } from '../routes/packages';
import { wholeListText } from '../services/whole-list';

export const handler = route('listDcc', async () => ({
  body: { dcc: wholeListText(await packageService().listDcc(), 'DCCs') },
}));
