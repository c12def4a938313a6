import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { Stage } from '../../../shared/api/contracts/resources';
import type { ArtefactJobs, GenerationJob } from '../../ports/artefact-jobs';
import type { UploadJobs, VerificationJob } from '../../ports/upload-jobs';

let client: LambdaClient | undefined;

/**
 * Starts a generation as an asynchronous invocation of the worker function (Invoke with InvocationType
 * `Event`, which Lambda queues and answers 202): Lambda's event invoke config retries a failed run and
 * sends the event to the on-failure queue after the last one (infra/lib/constructs/generation.ts).
 */
class LambdaAsyncJobs<Job extends object> {
  /** the function that runs `job` */
  constructor(private readonly functionOf: (job: Job) => string) {}

  async start(job: Job): Promise<void> {
    client ??= new LambdaClient({ maxAttempts: 3 });
    const out = await client.send(
      new InvokeCommand({
        FunctionName: this.functionOf(job),
        InvocationType: 'Event',
        Payload: new TextEncoder().encode(JSON.stringify(job)),
      }),
    );
    if (out.StatusCode !== 202) throw new Error(`Lambda Invoke (Event) answered ${out.StatusCode}`);
  }
}

/**
 * Generations (decision 160): the worker of the package's stage, which alone holds that stage's signing
 * key (generateArtefact: release, generateDevArtefact: development; decision 295).
 */
export class LambdaArtefactJobs extends LambdaAsyncJobs<GenerationJob> implements ArtefactJobs {
  constructor(functions: Record<Stage, string>) {
    super((job) => functions[job.stage ?? 'RELEASE']);
  }
}

/** Upload verifications: the verifyUpload worker (decision 173). */
export class LambdaUploadJobs extends LambdaAsyncJobs<VerificationJob> implements UploadJobs {
  constructor(functionName: string) {
    super(() => functionName);
  }
}
