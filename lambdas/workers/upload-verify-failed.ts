import { resourceService } from '../composition';
import { onFailureQueue } from '../middleware/on-failure-queue';
import { loggerFor } from '../observability/logger';
import { failedVerificationOf } from '../services/resources/verify-failure';

loggerFor('uploadVerifyFailed');

/**
 * The verifyUpload worker's on-failure queue (Lambda's destination record after the last retry): the
 * upload is kept, unlocked, with the reason, so its owner can confirm it again (decision 173).
 */
export const handler = onFailureQueue(failedVerificationOf, ({ job, reason }) =>
  resourceService().failVerification(job, reason),
);
