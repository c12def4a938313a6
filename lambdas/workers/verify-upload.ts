import * as z from 'zod';
import { resourceServiceWithStorage } from '../composition-storage';
import { loggerFor } from '../observability/logger';

// names this Lambda's logger (the service's lines use it)
loggerFor('verifyUpload');

const jobSchema = z.object({ uploadId: z.string().min(1).max(64), jobId: z.string().min(1).max(64) });

/**
 * The asynchronous invocation of an upload's verification (decision 173): one service call. A thrown
 * error makes Lambda retry the run, and after the last retry sends the event to the on-failure queue,
 * whose handler (upload-verify-failed.ts) keeps the upload with the reason.
 */
export async function handler(event: unknown): Promise<void> {
  await resourceServiceWithStorage().runVerification(jobSchema.parse(event));
}
