/** Asynchronous jobs in memory: started jobs are listed; a unit test runs them (or not) by hand. */
export class MemoryJobs<Job> {
  readonly started: Job[] = [];
  failStart: Error | undefined;

  async start(job: Job): Promise<void> {
    if (this.failStart) throw this.failStart;
    this.started.push(job);
  }

  /** the jobs started so far, removed from the list */
  take(): Job[] {
    return this.started.splice(0);
  }
}
