import { appendFileSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { setLocalAsyncInvoker } from '../../lambdas/adapters/local/local-artefact-jobs';
import { ASYNC_WORKERS, type AsyncWorker, workerFile } from '../../shared/api/workers';
import { asInvocation, onStorageCall } from './crash-seam';
import { type Grantee, LocalAccessDenied, routeScope } from './iam-check';

type JobHandler = (event: unknown) => Promise<unknown>;
type FailureHandler = (event: SQSEvent) => Promise<unknown>;

export interface LocalAsyncInvokerOptions {
  /** where the dead-letter file lives (<data>/dead-letters/<worker>.jsonl) */
  dataDir: string;
  log: (line: string) => void;
  /** pause between a failed run and its retry (Lambda waits a minute, then two; default 200 ms here) */
  retryDelayMs?: number;
  /**
   * Local-only pacing (decision 161): how long an accepted event waits before its first run, as Lambda's
   * queue may; 0 by default. The e2e journey sets it so a person (and Playwright) sees "Generating…".
   */
  startDelayMs?: number;
}

/** The grantee a worker runs as (its row's `uses`), for the local IAM check. */
const grantee = (id: string, uses: AsyncWorker['uses']): Grantee => ({ id: `worker:${id}`, uses });

/**
 * Lambda's asynchronous invocation, locally (decision 160): the caller's grant is checked as IAM would
 * (`uses.invoke` of its row names the worker), the call returns at once, and the worker's handler module
 * runs afterwards inside its own grant, tried 1 + `retryAttempts` times. After the last failed try the
 * event goes, as Lambda's destination record, to <data>/dead-letters/<worker>.jsonl and to the worker's
 * failure handler (the on-failure SQS queue's consumer in AWS), as an SQS event.
 */
export class LocalAsyncInvoker {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly o: LocalAsyncInvokerOptions) {}

  install(): void {
    setLocalAsyncInvoker((id, payload) => this.invoke(id, payload));
  }

  /**
   * Loads every worker's and failure handler's module now, as a warm Lambda has: a module that cannot
   * load fails the start, not the first job, and the server's memory before any job already holds them.
   */
  async warm(): Promise<void> {
    for (const w of ASYNC_WORKERS)
      for (const id of [w.id, w.failure.id]) await import(`../../lambdas/workers/${workerFile(id)}.ts`);
  }

  uninstall(): void {
    setLocalAsyncInvoker(undefined);
  }

  /** Resolves once every accepted event has run to its end (success or dead letter). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  invoke(workerId: string, payload: unknown): void {
    // an invoke is one of the caller's writes for the crash seam (a killed caller invokes nothing)
    onStorageCall(`Invoke:${workerId}`, true);
    const caller = routeScope.getStore();
    const worker = ASYNC_WORKERS.find((w) => w.id === workerId);
    if (!worker) throw new Error(`No asynchronous worker ${workerId} in shared/api/workers.ts`);
    if (caller && !caller.uses.invoke?.includes(worker.id))
      throw new LocalAccessDenied(
        `Local IAM check: route ${caller.id} invokes ${worker.id}, which its row in shared/api/routes.ts does not allow (in AWS its role would refuse this)`,
      );
    const run = this.run(worker, JSON.parse(JSON.stringify(payload)) as unknown).finally(() =>
      this.running.delete(run),
    );
    this.running.add(run);
  }

  private async run(worker: AsyncWorker, payload: unknown): Promise<void> {
    // leave the caller's invocation first: the event runs after the answer, outside the caller's grant
    await new Promise((r) => setTimeout(r, this.o.startDelayMs ?? 0));
    const attempts = 1 + worker.retryAttempts;
    let error: Error | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const handler = (await import(`../../lambdas/workers/${workerFile(worker.id)}.ts`)) as {
          handler: JobHandler;
        };
        // one invocation (the crash seam may end it after a write, as Lambda's would end; it is retried)
        const run = await asInvocation(`worker:${worker.id}`, null, () =>
          routeScope.run(grantee(worker.id, worker.uses), () => handler.handler(payload)),
        );
        if (run.record.crashed) throw new Error(`crash seam: killed after write ${run.record.crashAfter}`);
        if (run.error !== undefined) throw run.error;
        return;
      } catch (e) {
        error = e as Error;
        this.o.log(`async ${worker.id}: attempt ${attempt}/${attempts} failed: ${error.message}`);
        if (attempt < attempts) await new Promise((r) => setTimeout(r, this.o.retryDelayMs ?? 200));
      }
    }
    await this.deadLetter(worker, payload, error, attempts);
  }

  private async deadLetter(
    worker: AsyncWorker,
    payload: unknown,
    error: Error | undefined,
    attempts: number,
  ) {
    // the shape of Lambda's on-failure destination record
    const record = {
      version: '1.0',
      timestamp: new Date().toISOString(),
      requestContext: {
        requestId: crypto.randomUUID(),
        functionArn: `arn:aws:lambda:local:000000000000:function:${worker.id}`,
        condition: 'RetriesExhausted',
        approximateInvokeCount: attempts,
      },
      requestPayload: payload,
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      responsePayload: { errorType: error?.name ?? 'Error', errorMessage: error?.message ?? '' },
    };
    const dir = resolve(this.o.dataDir, 'dead-letters');
    mkdirSync(dir, { recursive: true });
    appendFileSync(resolve(dir, `${workerFile(worker.id)}.jsonl`), `${JSON.stringify(record)}\n`);
    const failure = worker.failure;
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        const m = (await import(`../../lambdas/workers/${workerFile(failure.id)}.ts`)) as {
          handler: FailureHandler;
        };
        const event = {
          Records: [{ messageId: record.requestContext.requestId, body: JSON.stringify(record) }],
        } as unknown as SQSEvent;
        const run = await asInvocation(`worker:${failure.id}`, null, () =>
          routeScope.run(grantee(failure.id, failure.uses), () => m.handler(event)),
        );
        if (run.record.crashed) throw new Error(`crash seam: killed after write ${run.record.crashAfter}`);
        if (run.error !== undefined) throw run.error;
        const out = run.value as { batchItemFailures?: unknown[] } | undefined;
        if (!out?.batchItemFailures?.length) return;
      } catch (e) {
        this.o.log(`async ${failure.id}: ${(e as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, this.o.retryDelayMs ?? 200));
    }
    // what the failure queue's dead-letter queue holds in AWS: `npm run ops:redrive` hands it in again
    appendFileSync(resolve(dir, `${workerFile(failure.id)}.jsonl`), `${JSON.stringify(record)}\n`);
    this.o.log(
      `async ${failure.id}: gave up; the record waits in dead-letters/${workerFile(failure.id)}.jsonl`,
    );
  }
}
