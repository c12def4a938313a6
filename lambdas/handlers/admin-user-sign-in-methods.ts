import { loadUserService } from '../composition';
import { route } from '../routes/passkeys';

export const handler = route('adminUserSignInMethods', async ({ params }) => {
  const m = await (await loadUserService()).signInMethodsOf(params.userId);
  return { body: { ...m, user: JSON.stringify(m.user) } };
});
