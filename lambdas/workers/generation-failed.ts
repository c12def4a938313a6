import { packageServiceWithArtefacts } from '../composition-artefacts';
import { onFailureQueue } from '../middleware/on-failure-queue';
import { loggerFor } from '../observability/logger';
import { metrics } from '../observability/metrics';
import { failedJobOf } from '../services/packages/generation-failure';

loggerFor('generationFailed');

/**
 * The generateArtefact worker's on-failure queue (Lambda's destination record after the last retry): the
 * package returns to its deciding state with the reason (decision 160).
 */
export const handler = onFailureQueue(
  failedJobOf,
  ({ job, reason }) => packageServiceWithArtefacts().failGeneration(job, reason),
  () => metrics().count('FailedGenerations'),
);
