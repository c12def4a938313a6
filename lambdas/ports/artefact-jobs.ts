import type { Stage } from '../../shared/api/contracts/resources';

/**
 * One generation of a package's XML, run off the request path (docs/decisions/160): the deciding call
 * commits the package as GENERATING with the job's id and hands the job to `ArtefactJobs.start`.
 */
export interface GenerationJob {
  packageId: string;
  jobId: string;
  /**
   * the package's stage: it picks the worker, the one holding that stage's signing key (decision 295).
   * Absent in jobs started before the keys were split; those went to the release worker.
   */
  stage?: Stage;
  /**
   * one id per invocation, the same for Lambda's retries of it (decision 284): the run claims the job
   * with it, so a second invocation of the same job (the decider's retry after a crash) never runs beside
   * the first. Absent from events queued before it existed.
   */
  runId?: string;
}

/**
 * Starts a generation asynchronously and returns once it is accepted (not done): in AWS an asynchronous
 * invocation of the generation worker of the job's stage (`generateArtefact` or `generateDevArtefact`) (InvocationType Event, with Lambda's retries and on-failure
 * queue), locally the same handler run after the answer (infra/local/async-invoke.ts), in unit tests a
 * list of jobs run by hand.
 */
export interface ArtefactJobs {
  start(job: GenerationJob): Promise<void>;
}
