import { loadUserService } from '../composition';
import { route } from '../routes/identity';
import { wholeListText } from '../services/whole-list';

export const handler = route('adminListUsers', async () => ({
  body: { users: wholeListText(await (await loadUserService()).listUsers(), 'users') },
}));
