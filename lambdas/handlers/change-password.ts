import { MSG } from '../../shared/messages';
import { users$ } from '../composition';
import { route } from '../middleware/identity-route';

export const handler = route('changePassword', async ({ body, user, sourceIp }) => {
  const { token } = await (await users$()).changePassword(user, body, sourceIp);
  return { body: { status: 'UPDATED', message: MSG.settingsSaved, token } };
});
