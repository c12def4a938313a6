import { users$ } from '../composition';
import { route } from '../middleware/identity-route';

export const handler = route('adminListUsers', async () => ({
  body: { users: JSON.stringify(await (await users$()).listUsers()) },
}));
