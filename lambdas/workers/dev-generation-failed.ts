import { packageServiceWithArtefacts } from '../composition-artefacts';
import { onFailureQueue } from '../middleware/on-failure-queue';
import { loggerFor } from '../observability/logger';
import { failedJobOf } from '../services/packages/generation-failure';

loggerFor('devGenerationFailed');

/** The generateDevArtefact worker's on-failure queue: as generation-failed.ts (decisions 160, 295). */
export const handler = onFailureQueue(failedJobOf, ({ job, reason }) =>
  packageServiceWithArtefacts().failGeneration(job, reason),
);
