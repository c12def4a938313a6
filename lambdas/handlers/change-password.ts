import { MSG } from '../../shared/messages';
import { loadUserService } from '../composition';
import { route } from '../routes/identity';

export const handler = route('changePassword', async ({ body, user, sourceIp }) => {
  const { token } = await (await loadUserService()).changePassword(user, body, sourceIp);
  return { body: { status: 'UPDATED', message: MSG.settingsSaved, token } };
});
