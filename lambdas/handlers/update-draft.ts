import { packageService } from '../composition-packages';
import { route } from '../routes/packages';

/** Step 1 of a draft again updates it (name, note, sign flag) instead of creating another (decision 242). */
export const handler = route('updateDraft', async ({ params, body, user }) => ({
  body: { package: JSON.stringify(await packageService().updateDraft(user, params.id, body)) },
}));
