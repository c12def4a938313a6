import '../composition-mail';
import { accountSchema } from '../../shared/api/contracts/user';
import { users$ } from '../composition';
import { route } from '../middleware/http';

export const handler = route(
  'updateAccount',
  { body: accountSchema, maxBodyBytes: 4096 },
  async ({ body, user }) => {
    const updated = await (await users$()).updateAccount(user!, body);
    return { body: { user: JSON.stringify(updated) } };
  },
);
