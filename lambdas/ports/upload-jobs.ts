/**
 * The verification of a confirmed upload, run off the request path (docs/decisions/173): the confirm or
 * complete call locks the pending upload, records the job's id on it and hands the job to
 * `UploadJobs.start`; the verifyUpload worker hashes the file and registers the resource.
 */
export interface VerificationJob {
  uploadId: string;
  jobId: string;
}

/**
 * Starts a verification asynchronously and returns once it is accepted: in AWS an asynchronous invocation
 * of the `verifyUpload` worker (InvocationType Event, Lambda's retries and on-failure queue), locally the
 * same handler run after the answer (infra/local/async-invoke.ts), in unit tests a list run by hand.
 */
export interface UploadJobs {
  start(job: VerificationJob): Promise<void>;
}
