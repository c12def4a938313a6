import { loadUserService } from '../composition';
import { route } from '../routes/identity';

export const handler = route('adminListUsers', async () => ({
  body: { users: JSON.stringify(await (await loadUserService()).listUsers()) },
}));
