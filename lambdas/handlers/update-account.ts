import { accountSchema } from '../../shared/api/contracts/user';
import { route } from '../composition-http';
import { loadUserService } from '../composition-mail';

export const handler = route(
  'updateAccount',
  { body: accountSchema, maxBodyBytes: 4096 },
  async ({ body, user }) => {
    const updated = await (await loadUserService()).updateAccount(user!, body);
    return { body: { user: JSON.stringify(updated) } };
  },
);
