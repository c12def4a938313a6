import { packageServiceWithArtefacts } from '../composition-artefacts';
import { loggerFor } from '../middleware/logging';
import { onFailureQueue } from '../middleware/on-failure-queue';
import { failedJobOf } from '../services/packages/generation-failure';

loggerFor('devGenerationFailed');

/** The generateDevArtefact worker's on-failure queue: as generation-failed.ts (decisions 160, 295). */
export const handler = onFailureQueue(failedJobOf, ({ job, reason }) =>
  packageServiceWithArtefacts().failGeneration(job, reason),
);
