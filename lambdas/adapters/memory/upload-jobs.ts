import type { UploadJobs, VerificationJob } from '../../ports/upload-jobs';

/** Verification jobs in memory: started jobs are listed; a unit test runs them (or not) by hand. */
export class MemoryUploadJobs implements UploadJobs {
  readonly started: VerificationJob[] = [];
  failStart: Error | undefined;

  async start(job: VerificationJob): Promise<void> {
    if (this.failStart) throw this.failStart;
    this.started.push(job);
  }

  /** the jobs started so far, removed from the list */
  take(): VerificationJob[] {
    return this.started.splice(0);
  }
}
