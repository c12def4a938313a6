import type { VerificationJob } from '../../ports/upload-jobs';
import { destinationOf } from '../packages/generation-failure';

/**
 * The job and a reason a user reads from Lambda's on-failure destination record of a verifyUpload run
 * (the SQS message body); null for a body that is not one. Refusals never get here (the worker records
 * them itself), so what failed is always a service: its details stay in the log.
 */
export function failedVerificationOf(body: string): { job: VerificationJob; reason: string } | null {
  const d = destinationOf(body);
  const job = d?.payload as Partial<VerificationJob> | undefined;
  if (!d || typeof job?.uploadId !== 'string' || typeof job.jobId !== 'string') return null;
  const reason = d.tooOld
    ? 'the check waited too long to run'
    : `storage or the database did not answer${d.tries ? `, after ${d.tries} attempts` : ''}`;
  return { job: { uploadId: job.uploadId, jobId: job.jobId }, reason };
}
