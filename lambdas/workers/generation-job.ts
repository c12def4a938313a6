import type { Stage } from '../../shared/api/contracts/resources';
import { generationJobSchema } from '../../shared/api/workers';
import { packageServiceSigning } from '../composition-artefacts';
import { logger } from '../observability/logger';

/** Runs one generation job with `stage`'s key; every log line of the run names its package and job. */
export async function runGenerationJob(stage: Stage, event: unknown): Promise<void> {
  const job = generationJobSchema.parse(event);
  logger().appendKeys({ packageId: job.packageId, jobId: job.jobId });
  try {
    await packageServiceSigning(stage)().runGeneration(job);
  } finally {
    logger().removeKeys(['packageId', 'jobId']);
  }
}
