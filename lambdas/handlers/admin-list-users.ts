import { loadUserService } from '../composition';
import { route } from '../composition-http';

export const handler = route('adminListUsers', {}, async () => ({
  body: { users: JSON.stringify(await (await loadUserService()).listUsers()) },
}));
