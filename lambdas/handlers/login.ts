import { loginSchema } from '../../shared/api/contracts/user';
import { users$ } from '../composition';
import { route } from '../middleware/http';

export const handler = route(
  'login',
  { body: loginSchema, maxBodyBytes: 4096 },
  async ({ body, sourceIp }) => {
    const { token, user } = await (await users$()).login(body.login, body.password, sourceIp);
    return { body: { token, user: JSON.stringify(user) } };
  },
);
