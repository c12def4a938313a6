/**
 * `npm run ops:redrive -- [--local] [--data-dir D] [--stage S] [--region R]`
 *
 * Hands in again what the portal's asynchronous paths gave up on (decision 218, docs/operations.md):
 * 1. generation and upload verification: the records their failure handlers could not record (the
 *    dead-letter queues of the generateArtefact and verifyUpload failure queues) go back to the failure
 *    queues, whose handlers then return the package, or keep the upload, with the reason;
 * 2. workflow mail: the mail worker's dead-letter records (stream batch metadata only: the mails are
 *    found by reading the records from the table's stream, which keeps them 24 hours) and mails left
 *    PENDING past the stream record's age are marked FAILED with the reason; then every FAILED mail is
 *    queued again as a new outbox item (the worker sends it with fresh tries) and leaves the package's
 *    failures; the package history records MAIL_REDRIVEN.
 *
 * - `--local`: the stack `npm start` runs on the data folder (.data, DATA_DIR or --data-dir): endpoints
 *   from its emulators.json, the dead-letter files under <data>/dead-letters/.
 * - deployed (stage S): the AWS SDK with the default credential chain. The tables and the dead-letter
 *   queues are read from the outputs of the stack FirmwareReleasePortal-<stage> (OutboxTableName,
 *   PackagesTableName, AuditTableName, <Worker>DeadLettersArn; decision 311): nothing copied by hand.
 *   Endpoints from the usual AWS_ENDPOINT_URL_* variables when set.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { SQSEvent } from 'aws-lambda';
import { tableEnv } from '../shared/api/runtime';
import { ASYNC_WORKERS, WORKERS, workerFile } from '../shared/api/workers';
import { localDataDir, opsFail, TARGET_OPTIONS, targetLocalStack } from './ops-env';

const fail: (message: string) => never = opsFail('ops:redrive');

const { values } = parseArgs({
  options: {
    ...TARGET_OPTIONS,
    stage: { type: 'string', default: 'dev' },
  },
  strict: true,
});

const MAIL_ROW = WORKERS.find((w) => w.id === 'mailOutbox')!;
const dataDir = localDataDir(values['data-dir']);
const deadLetterFile = (id: string) => resolve(dataDir, 'dead-letters', `${workerFile(id)}.jsonl`);

/** The batch metadata Lambda sends to a stream source's on-failure destination. */
interface StreamBatchInfo {
  shardId: string;
  startSequenceNumber: string;
  endSequenceNumber: string;
  batchSize: number;
  streamArn: string;
}

// ── environment ─────────────────────────────────────────────────────────────────────────────
if (values.local) {
  // the environment the local stack gives its handlers (infra/local/stack.ts)
  await targetLocalStack(dataDir, { withS3: true }, fail);
} else {
  if (values.region) process.env.AWS_REGION = values.region;
  Object.assign(process.env, await stackTables());
}
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand } = await import(
  '@aws-sdk/client-dynamodb-streams'
);
const streams = new DynamoDBStreamsClient(
  values.local ? { endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB } : {},
);

/** The ids of the outbox mails a dead-letter record names, read from the stream (empty once trimmed). */
async function mailIdsOf(info: StreamBatchInfo): Promise<string[]> {
  try {
    const it = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: info.streamArn,
        ShardId: info.shardId,
        ShardIteratorType: 'AT_SEQUENCE_NUMBER',
        SequenceNumber: info.startSequenceNumber,
      }),
    );
    const ids: string[] = [];
    let iterator = it.ShardIterator;
    const end = BigInt(info.endSequenceNumber);
    for (let pages = 0; iterator && pages < 20; pages++) {
      const r = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 100 }));
      for (const rec of r.Records ?? []) {
        const seq = BigInt(rec.dynamodb?.SequenceNumber ?? '0');
        if (seq > end) return ids;
        const pk = rec.dynamodb?.Keys?.pk?.S;
        if (pk?.startsWith('MAIL#')) ids.push(pk.slice('MAIL#'.length));
      }
      if ((r.Records ?? []).length === 0) break;
      iterator = r.NextShardIterator;
    }
    return ids;
  } catch (e) {
    const name = (e as Error).name;
    if (name === 'TrimmedDataAccessException' || name === 'ResourceNotFoundException') return [];
    throw e;
  }
}

// ── 1. generation and upload verification ───────────────────────────────────────────────────
const report: string[] = [];

async function redriveAsyncLocal(): Promise<void> {
  for (const w of ASYNC_WORKERS) {
    const file = deadLetterFile(w.failure.id);
    if (!existsSync(file)) continue;
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const { handler } = (await import(`../lambdas/workers/${workerFile(w.failure.id)}.ts`)) as {
      handler: (e: SQSEvent) => Promise<{ batchItemFailures?: unknown[] }>;
    };
    const left: string[] = [];
    for (const [i, body] of lines.entries()) {
      const event = { Records: [{ messageId: `redrive-${i}`, body }] } as unknown as SQSEvent;
      const out = await handler(event).catch(() => ({ batchItemFailures: [1] }));
      if (out?.batchItemFailures?.length) left.push(body);
    }
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, left.map((l) => `${l}\n`).join(''));
    renameSync(tmp, file);
    report.push(`${w.failure.id}: ${lines.length - left.length} of ${lines.length} records handled again`);
  }
}

/** The stack's outputs (DescribeStacks): what a deployed redrive reads instead of names copied by hand. */
async function stackOutputs(): Promise<Record<string, string>> {
  const { CloudFormationClient, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
  const { stackName } = await import('../infra/lib/portal-app');
  const name = stackName(values.stage!);
  const r = await new CloudFormationClient({})
    .send(new DescribeStacksCommand({ StackName: name }))
    .catch((e: Error) => fail(`cannot read the stack ${name}: ${e.name}: ${e.message}`));
  return Object.fromEntries(
    (r.Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey ?? '', o.OutputValue ?? '']),
  );
}

/** TABLE_OUTBOX, TABLE_PACKAGES, TABLE_AUDIT from the stack's outputs. */
async function stackTables(): Promise<Record<string, string>> {
  const outputs = await stackOutputs();
  const env: Record<string, string> = {};
  for (const [t, key] of [
    ['outbox', 'OutboxTableName'],
    ['packages', 'PackagesTableName'],
    ['audit', 'AuditTableName'],
  ] as const) {
    const v = outputs[key];
    if (!v) fail(`the stack of stage ${values.stage} has no output ${key}: deploy the current version first`);
    env[tableEnv(t)] = v;
  }
  return env;
}

async function queues() {
  const sqs = await import('@aws-sdk/client-sqs');
  const client = new sqs.SQSClient({});
  const { deadLettersOutput } = await import('../infra/lib/portal-stack');
  const outputs = await stackOutputs();
  /** the dead-letter queue of a worker: its ARN is a stack output; the URL follows from it */
  const find = async (workerId: string) => {
    const arn = outputs[deadLettersOutput(workerId)];
    if (!arn) fail(`the stack of stage ${values.stage} has no output ${deadLettersOutput(workerId)}`);
    // arn:aws:sqs:<region>:<account>:<name>
    const [, , , , account, queueName] = arn.split(':');
    const r = await client.send(
      new sqs.GetQueueUrlCommand({ QueueName: queueName, QueueOwnerAWSAccountId: account }),
    );
    return { arn, url: r.QueueUrl! };
  };
  return { sqs, client, find };
}

async function redriveAsyncAws(): Promise<void> {
  const { sqs, client, find } = await queues();
  for (const w of ASYNC_WORKERS) {
    const { url } = await find(w.id);
    const attrs = await client.send(
      new sqs.GetQueueAttributesCommand({
        QueueUrl: url,
        AttributeNames: ['QueueArn', 'ApproximateNumberOfMessages'],
      }),
    );
    const count = Number(attrs.Attributes?.ApproximateNumberOfMessages ?? 0);
    if (count === 0) {
      report.push(`${w.failure.id}: nothing in the dead-letter queue`);
      continue;
    }
    // back to the queue they came from (the failure queue): its handler records the failure
    await client.send(new sqs.StartMessageMoveTaskCommand({ SourceArn: attrs.Attributes!.QueueArn! }));
    report.push(`${w.failure.id}: moving about ${count} records back to the failure queue`);
  }
}

/** The mail ids the mail worker's dead letters name; `done` removes those records once handled. */
async function mailDeadLetters(): Promise<{ ids: string[]; done: () => Promise<void> }> {
  if (values.local) {
    const file = deadLetterFile(MAIL_ROW.id);
    if (!existsSync(file)) return { ids: [], done: async () => undefined };
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const ids: string[] = [];
    for (const l of lines)
      ids.push(
        ...(await mailIdsOf((JSON.parse(l) as { DDBStreamBatchInfo: StreamBatchInfo }).DDBStreamBatchInfo)),
      );
    return {
      ids,
      done: async () => {
        // lines added meanwhile stay
        const now = readFileSync(file, 'utf8').split('\n').filter(Boolean);
        writeFileSync(
          `${file}.tmp`,
          now
            .slice(lines.length)
            .map((l) => `${l}\n`)
            .join(''),
        );
        renameSync(`${file}.tmp`, file);
      },
    };
  }
  const { sqs, client, find } = await queues();
  const { url } = await find(MAIL_ROW.id);
  const ids: string[] = [];
  const handles: string[] = [];
  for (;;) {
    const r = await client.send(
      new sqs.ReceiveMessageCommand({
        QueueUrl: url,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        VisibilityTimeout: 300,
      }),
    );
    const messages = r.Messages ?? [];
    if (messages.length === 0) break;
    for (const m of messages) {
      const info = (JSON.parse(m.Body ?? '{}') as { DDBStreamBatchInfo?: StreamBatchInfo })
        .DDBStreamBatchInfo;
      if (info) ids.push(...(await mailIdsOf(info)));
      handles.push(m.ReceiptHandle!);
    }
  }
  return {
    ids,
    done: async () => {
      for (const h of handles)
        await client.send(new sqs.DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: h }));
    },
  };
}

// ── 2. workflow mail ─────────────────────────────────────────────────────────────────────────
async function redriveMail(): Promise<void> {
  const { DynamoOutboxStore } = await import('../lambdas/adapters/dynamodb/outbox');
  const { systemClock } = await import('../lambdas/ports/clock');
  const { DEFAULT_MAIL_RETRY, MailOutboxWorker } = await import('../lambdas/services/mail-outbox-worker');
  const { redriveMails } = await import('../lambdas/services/mail-redrive');
  const audit = { table: () => process.env.TABLE_AUDIT!, clock: systemClock };
  const store = new DynamoOutboxStore(process.env.TABLE_OUTBOX!, process.env.TABLE_PACKAGES!, audit);
  const worker = new MailOutboxWorker({
    store,
    // the redrive gives mails up and queues them again; the mail worker sends them
    mailer: { send: () => Promise.reject(new Error('ops:redrive sends no mail itself')) },
    clock: systemClock,
    policy: DEFAULT_MAIL_RETRY,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  });
  const dead = await mailDeadLetters();
  const result = await redriveMails(
    { store, worker, clock: systemClock, staleAfterMs: MAIL_ROW.maxRecordAgeSeconds * 1000 },
    dead.ids,
  );
  await dead.done();
  report.push(`mail: ${dead.ids.length} named by dead letters, ${result.givenUp.length} given up`);
  report.push(`mail: ${result.redriven.length} failed mails queued again`);
  for (const r of result.redriven) report.push(`  ${r.mailTo}: ${r.subject} (${r.from} → ${r.to})`);
}

try {
  await (values.local ? redriveAsyncLocal() : redriveAsyncAws());
  await redriveMail();
} catch (e) {
  fail(`${(e as Error).name}: ${(e as Error).message}`);
}
console.log(`Redrive (${values.local ? `local stack, ${dataDir}` : `stage ${values.stage}`}):`);
for (const line of report) console.log(`  ${line}`);
