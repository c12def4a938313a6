import { MSG } from '../../shared/messages';
import { packageServiceWithJobs } from '../composition-jobs';
import { route } from '../routes/packages';

/** Starts a failed generation again (only its decider; decision 160): 202 GENERATING. */
export const handler = route('retryGeneration', async ({ params, user }) => {
  const { outcome, pkg } = await packageServiceWithJobs().retryGeneration(user, params.id);
  return { statusCode: 202, body: { outcome, message: MSG.generating, package: JSON.stringify(pkg) } };
});
