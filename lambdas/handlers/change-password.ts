import { changePasswordSchema } from '../../shared/api/contracts/user';
import { MSG } from '../../shared/messages';
import { loadUserService } from '../composition';
import { route } from '../composition-http';

export const handler = route(
  'changePassword',
  { body: changePasswordSchema, maxBodyBytes: 4096 },
  async ({ body, user, sourceIp }) => {
    const { token } = await (await loadUserService()).changePassword(user!, body, sourceIp);
    return { body: { status: 'UPDATED', message: MSG.settingsSaved, token } };
  },
);
