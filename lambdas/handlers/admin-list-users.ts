import { users$ } from '../composition';
import { route } from '../middleware/http';

export const handler = route('adminListUsers', async () => ({
  body: { users: JSON.stringify(await (await users$()).listUsers()) },
}));
