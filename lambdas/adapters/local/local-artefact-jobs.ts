import { generationWorkerOf } from '../../../shared/api/workers';
import type { ArtefactJobs, GenerationJob } from '../../ports/artefact-jobs';
import type { UploadJobs, VerificationJob } from '../../ports/upload-jobs';

/**
 * The local stack's stand-in for Lambda's asynchronous invocation: the local stack registers an invoker
 * (infra/local/async-invoke.ts) that checks the caller's grant, answers at once and runs the worker's
 * handler module after the answer, with the worker's retries and dead-letter path.
 */
export type LocalAsyncInvoke = (workerId: string, payload: unknown) => void;

let invoker: LocalAsyncInvoke | undefined;

/** Called by the local stack at start-up. */
export function setLocalAsyncInvoker(i: LocalAsyncInvoke | undefined): void {
  invoker = i;
}

function invoke(workerId: string, payload: unknown): void {
  if (!invoker) throw new Error('No local asynchronous invoker is registered (infra/local/stack.ts)');
  invoker(workerId, payload);
}

export class LocalArtefactJobs implements ArtefactJobs {
  async start(job: GenerationJob): Promise<void> {
    // the worker of the package's stage: it alone holds that stage's key (decision 295)
    invoke(generationWorkerOf(job.stage ?? 'RELEASE'), job);
  }
}

export class LocalUploadJobs implements UploadJobs {
  async start(job: VerificationJob): Promise<void> {
    invoke('verifyUpload', job);
  }
}
