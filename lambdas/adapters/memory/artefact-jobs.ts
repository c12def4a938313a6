import type { ArtefactJobs, GenerationJob } from '../../ports/artefact-jobs';

/** Jobs in memory: started jobs are listed; a unit test runs them (or not) by hand. */
export class MemoryArtefactJobs implements ArtefactJobs {
  readonly started: GenerationJob[] = [];
  failStart: Error | undefined;

  async start(job: GenerationJob): Promise<void> {
    if (this.failStart) throw this.failStart;
    this.started.push(job);
  }

  /** the jobs started so far, removed from the list */
  take(): GenerationJob[] {
    return this.started.splice(0);
  }
}
