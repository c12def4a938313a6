import * as z from 'zod';
import { packageServiceWithArtefacts } from '../composition-artefacts';
import { loggerFor } from '../middleware/logging';

// names this Lambda's logger (the service's lines use it)
loggerFor('generateArtefact');

const jobSchema = z.object({
  packageId: z.string().min(1).max(64),
  jobId: z.string().min(1).max(64),
  runId: z.string().min(1).max(64).optional(),
});

/**
 * The asynchronous invocation of a generation job (decision 160): one service call. A thrown error makes
 * Lambda retry the run (the event invoke config), and after the last retry sends the event to the
 * on-failure queue, whose handler (generation-failed.ts) returns the package with the reason.
 */
export async function handler(event: unknown): Promise<void> {
  await packageServiceWithArtefacts().runGeneration(jobSchema.parse(event));
}
