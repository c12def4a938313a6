import * as z from 'zod';
import { STAGES, type Stage } from './contracts/resources';
import type { RouteUses, TableName } from './routes';

/**
 * Stream workers: Lambdas driven by a table's DynamoDB stream instead of by API Gateway. The CDK stack
 * (infra/lib/constructs/workers.ts) makes one function and one event source mapping per row, with grants
 * from `uses` like a route; the local stack (infra/local/streams.ts) polls DynamoDB Local's stream of the
 * same table and invokes the same handler module with the same event shape, filter and retry rules.
 */
export interface StreamWorker {
  /** camelCase id; the handler module is lambdas/workers/<kebab-case of id>.ts */
  id: 'mailOutbox' | 'auditCopy';
  /** the table whose stream drives the worker */
  source: TableName;
  /** only INSERTs of items of this `kind` reach the worker (Lambda filter criteria; the local poller the same) */
  kind: string;
  uses: RouteUses;
  batchSize: number;
  /** retries of a failed batch by the event source before it goes to the dead-letter queue */
  retryAttempts: number;
  maxRecordAgeSeconds: number;
  timeoutSeconds: number;
  summary: string;
}

export const WORKERS: readonly StreamWorker[] = [
  {
    id: 'mailOutbox',
    source: 'outbox',
    kind: 'MAIL',
    // packages: a mail given up on is recorded on its package (decision 095)
    uses: { tables: ['outbox', 'packages', 'audit'], writes: ['outbox', 'packages', 'audit'], mail: true },
    batchSize: 10,
    // the worker itself counts tries and gives a mail up after its own limit (MAIL_MAX_ATTEMPTS); the
    // event source's retries only cover runs that crash, and must outlast the worker's backoff
    retryAttempts: 100,
    maxRecordAgeSeconds: 6 * 60 * 60,
    timeoutSeconds: 120,
    summary: 'Sends workflow mails from the outbox, with retries and backoff (decision 095)',
  },
  {
    id: 'auditCopy',
    source: 'audit',
    kind: 'AUDIT',
    uses: { tables: [], buckets: { audit: ['write'] } },
    batchSize: 100,
    retryAttempts: 1000,
    maxRecordAgeSeconds: 24 * 60 * 60,
    timeoutSeconds: 60,
    summary: 'Copies every audit event to the Object Lock audit bucket (decision 097)',
  },
];

/** The worker's handler file name (kebab-case of its id). */
export const workerFile = (id: string): string => id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The Lambda event filter of a worker: new items of its kind. */
export function workerFilterPattern(w: StreamWorker): Record<string, unknown> {
  return { eventName: ['INSERT'], dynamodb: { NewImage: { kind: { S: [w.kind] } } } };
}

/** Whether a stream record passes the worker's filter (what Lambda's filter criteria let through). */
export function passesWorkerFilter(
  w: StreamWorker,
  record: { eventName?: string; dynamodb?: { NewImage?: Record<string, { S?: string } | undefined> } },
): boolean {
  return record.eventName === 'INSERT' && record.dynamodb?.NewImage?.kind?.S === w.kind;
}

/**
 * Asynchronous workers: Lambdas a route invokes with InvocationType 'Event' (the route's `uses.invoke`).
 * The CDK stack (infra/lib/constructs/generation.ts) makes the function with its grants from `uses`, an
 * event invoke config (retries, event age) whose on-failure destination is an encrypted SQS queue, and a
 * second function (`failure`) fed by that queue, which marks the work failed after the last retry. The
 * local stack (infra/local/async-invoke.ts) runs the same handler modules after the answer, with the same
 * retry count, a dead-letter file and the same failure handler (docs/decisions/160).
 */
export interface AsyncWorker {
  /** camelCase id; the handler module is lambdas/workers/<kebab-case of id>.ts */
  id: 'generateArtefact' | 'generateDevArtefact' | 'verifyUpload';
  uses: RouteUses;
  /** Lambda's retries of a failed asynchronous run (0–2) */
  retryAttempts: number;
  maxEventAgeSeconds: number;
  timeoutSeconds: number;
  memoryMb: number;
  summary: string;
  /** the handler of the on-failure queue (lambdas/workers/<kebab-case of id>.ts) */
  failure: {
    id: 'generationFailed' | 'devGenerationFailed' | 'uploadVerifyFailed';
    uses: RouteUses;
    timeoutSeconds: number;
    summary: string;
  };
  /** what an operator is told by the alarms: what a run that failed after every retry leaves behind */
  failedRunMeans: string;
}

/**
 * A generation worker: the XML of one stage's packages, signed with that stage's key alone (decision 295).
 * One Lambda role cannot be limited per call, so each key has its own worker, and each key's policy names
 * its worker's role only: the release key never signs a development package, nor the reverse.
 */
function generationWorker(stage: Stage): AsyncWorker {
  const release = stage === 'RELEASE';
  return {
    id: release ? 'generateArtefact' : 'generateDevArtefact',
    uses: {
      tables: ['packages', 'resources', 'dcc', 'audit', 'outbox'],
      // the resource and the DCC are read into the package, never changed by it
      writes: ['packages', 'audit', 'outbox'],
      buckets: { resources: ['read'], artefacts: ['write', 'delete'] },
      sign: stage,
    },
    retryAttempts: 2,
    maxEventAgeSeconds: 60 * 60,
    // Lambda's limit; 10 GiB at the memory below is the arithmetic of docs/performance.md
    timeoutSeconds: 15 * 60,
    memoryMb: 3008,
    summary: release
      ? 'Generates and stores the XML of RELEASE packages off the request path, with progress; signs with the release key (decisions 160, 295)'
      : 'Generates and stores the XML of DEV packages off the request path, with progress; signs with the development key (decisions 160, 295)',
    failure: {
      id: release ? 'generationFailed' : 'devGenerationFailed',
      uses: {
        tables: ['packages', 'audit'],
        writes: ['packages', 'audit'],
        buckets: { artefacts: ['delete'] },
      },
      timeoutSeconds: 60,
      summary:
        'After the last retry: returns the package to its deciding state with the reason (decision 160)',
    },
    failedRunMeans: 'the package went back with the reason',
  };
}

export const ASYNC_WORKERS: readonly AsyncWorker[] = [
  generationWorker('RELEASE'),
  generationWorker('DEV'),
  {
    id: 'verifyUpload',
    uses: {
      tables: ['resources', 'audit'],
      writes: ['resources', 'audit'],
      buckets: { resources: ['read', 'write', 'delete'] },
    },
    retryAttempts: 2,
    maxEventAgeSeconds: 60 * 60,
    // one read of 10 GiB at one S3 stream's 90–150 MB/s is 70–120 s (decision 172); Lambda's limit
    timeoutSeconds: 15 * 60,
    // one full vCPU (SHA-256 is the CPU work); the copy of a single-PUT upload keeps 8 MiB parts in flight
    memoryMb: 1769,
    summary:
      'Hashes a confirmed upload (SHA-256, size), copies it out of staging and registers the resource, with progress (decision 173)',
    failure: {
      id: 'uploadVerifyFailed',
      uses: { tables: ['resources'], writes: ['resources'] },
      timeoutSeconds: 60,
      summary:
        'After the last retry: keeps the upload with the reason and unlocks it, so the same confirmation can be sent again (decision 173)',
    },
    failedRunMeans: 'the upload was kept with the reason; its owner may confirm it again',
  },
];

/** The environment variable a route reads for the function name of an asynchronous worker (GENERATE_ARTEFACT_FUNCTION). */
export const asyncWorkerEnv = (id: string): string =>
  `${id.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}_FUNCTION`;

/** The generation worker of a package's stage: the one that holds that stage's signing key (decision 295). */
export const generationWorkerOf = (stage: Stage): 'generateArtefact' | 'generateDevArtefact' =>
  stage === 'RELEASE' ? 'generateArtefact' : 'generateDevArtefact';

/** The event of a generation worker (lambdas/ports/artefact-jobs.ts GenerationJob). */
export const generationJobSchema = z.object({
  packageId: z.string().min(1).max(64),
  jobId: z.string().min(1).max(64),
  stage: z.enum(STAGES).optional(),
  runId: z.string().min(1).max(64).optional(),
});
