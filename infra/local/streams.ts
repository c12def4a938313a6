import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { passesWorkerFilter, type StreamWorker, workerFile } from '../../shared/api/workers';
import { asInvocation, installCrashSeam } from './crash-seam';
import { installLocalIamChecks, routeScope, workerGrantee } from './iam-check';

type WorkerHandler = (event: DynamoDBStreamEvent, context?: Context) => Promise<DynamoDBBatchResponse>;

export interface StreamPollerOptions {
  worker: StreamWorker;
  table: string;
  dynamo: DynamoDBClient;
  endpoint: string;
  region: string;
  /** where the checkpoints and the dead-letter file live */
  dataDir: string;
  pollMs?: number;
  log: (line: string) => void;
  /** tests: a Streams client and a handler in place of DynamoDB Local's and the worker module */
  streams?: Pick<DynamoDBStreamsClient, 'send' | 'destroy'>;
  handler?: WorkerHandler;
}

interface Checkpoints {
  streamArn?: string;
  /** shard id → last sequence number handed to the worker successfully (or skipped by the filter) */
  shards: Record<string, string>;
  /** shards read to their end */
  closed: string[];
}

/**
 * The local event source mapping of one stream worker: polls DynamoDB Local's stream of the worker's
 * table (the DynamoDB Streams API) and invokes the worker's handler module with a real DynamoDB Streams
 * event, as Lambda does in AWS (infra/lib/constructs/workers.ts) and with the same rules:
 *   - only records passing the worker's filter (INSERTs of its kind) are handed in, in batches;
 *   - batch item failures are handed in again from the first failed record (the worker waits for its own
 *     backoff); a thrown error bisects the batch;
 *   - after `retryAttempts` failed hand-ins, or past `maxRecordAgeSeconds`, the batch goes to the
 *     dead-letter file <data>/dead-letters/<worker>.jsonl (the on-failure SQS queue in AWS) and the
 *     poller moves on.
 * Checkpoints persist under <data>/streams/, so a restart goes on where it stopped.
 */
export class StreamPoller {
  private readonly streams: Pick<DynamoDBStreamsClient, 'send' | 'destroy'>;
  private readonly file: string;
  private cp: Checkpoints;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private handler: Promise<WorkerHandler> | undefined;
  private lastError = '';
  /** failed hand-ins of the batch starting at a sequence number */
  private failures = new Map<string, number>();
  private batchLimit: number;
  /** the stream and its shards, described again every few seconds (new shards appear over time) */
  private described: { arn: string; shards: Shard[]; at: number } | undefined;
  /** shard id → the iterator GetRecords returned last, while reading on from there */
  private iterators = new Map<string, string>();

  constructor(private readonly o: StreamPollerOptions) {
    this.streams =
      o.streams ?? new DynamoDBStreamsClient({ endpoint: o.endpoint, region: o.region, maxAttempts: 1 });
    mkdirSync(resolve(o.dataDir, 'streams'), { recursive: true });
    this.file = resolve(o.dataDir, 'streams', `${workerFile(o.worker.id)}.json`);
    this.cp = existsSync(this.file)
      ? (JSON.parse(readFileSync(this.file, 'utf8')) as Checkpoints)
      : { shards: {}, closed: [] };
    this.batchLimit = o.worker.batchSize;
  }

  start(): void {
    installLocalIamChecks();
    installCrashSeam();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    this.streams.destroy();
  }

  private load(): Promise<WorkerHandler> {
    if (this.o.handler) return Promise.resolve(this.o.handler);
    this.handler ??= import(`../../lambdas/workers/${workerFile(this.o.worker.id)}.ts`).then(
      (m: { handler: WorkerHandler }) => m.handler,
    );
    return this.handler;
  }

  private async run(): Promise<void> {
    const pause = this.o.pollMs ?? 200;
    let backoff = pause;
    while (!this.stopped) {
      try {
        const busy = await this.tick();
        this.lastError = '';
        backoff = pause;
        if (!busy) await sleep(pause);
      } catch (e) {
        // DynamoDB Local down or restarted: say so once, then keep trying with a growing pause, reading
        // the stream afresh from the checkpoints
        this.described = undefined;
        this.iterators.clear();
        const msg = `${(e as Error).name}: ${(e as Error).message}`;
        if (msg !== this.lastError) this.o.log(`stream ${this.o.worker.id}: ${msg} (retrying)`);
        this.lastError = msg;
        backoff = Math.min(backoff * 2, 5_000);
        await sleep(backoff);
      }
    }
  }

  private save() {
    writeFileSync(this.file, `${JSON.stringify(this.cp)}\n`);
  }

  /** One pass over the stream's shards; true when records were handed in (poll again at once). */
  async tick(): Promise<boolean> {
    if (!this.described || Date.now() - this.described.at > 5_000) {
      const table = await this.o.dynamo.send(new DescribeTableCommand({ TableName: this.o.table }));
      const arn = table.Table?.LatestStreamArn;
      if (!arn) return false;
      if (this.cp.streamArn !== arn) {
        this.cp = { streamArn: arn, shards: {}, closed: [] };
        this.iterators.clear();
        this.save();
      }
      const desc = await this.streams.send(new DescribeStreamCommand({ StreamArn: arn }));
      this.described = { arn, shards: desc.StreamDescription?.Shards ?? [], at: Date.now() };
    }
    const { arn, shards } = this.described;
    let busy = false;
    for (const shard of shards) {
      const id = shard.ShardId!;
      if (this.cp.closed.includes(id)) continue;
      // a child shard is read once its parent is read to the end, as Lambda keeps the order per key
      if (shard.ParentShardId && !this.cp.closed.includes(shard.ParentShardId)) {
        const parentKnown = shards.some((s) => s.ShardId === shard.ParentShardId);
        if (parentKnown) continue;
      }
      if (await this.readShard(arn, id)) busy = true;
      if (this.stopped) break;
    }
    return busy;
  }

  private async iterator(arn: string, shardId: string): Promise<string | undefined> {
    const after = this.cp.shards[shardId];
    try {
      const r = await this.streams.send(
        new GetShardIteratorCommand({
          StreamArn: arn,
          ShardId: shardId,
          ShardIteratorType: after ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON',
          SequenceNumber: after,
        }),
      );
      return r.ShardIterator;
    } catch (e) {
      if ((e as Error).name !== 'TrimmedDataAccessException') throw e;
      delete this.cp.shards[shardId];
      return this.iterator(arn, shardId);
    }
  }

  private async readShard(arn: string, shardId: string): Promise<boolean> {
    const it = this.iterators.get(shardId) ?? (await this.iterator(arn, shardId));
    if (!it) return false;
    const r = await this.streams.send(new GetRecordsCommand({ ShardIterator: it, Limit: this.batchLimit }));
    const records = r.Records ?? [];
    // read on from here next time, unless a failure below rewinds to the checkpoint
    if (r.NextShardIterator) this.iterators.set(shardId, r.NextShardIterator);
    else this.iterators.delete(shardId);
    if (records.length === 0) {
      if (!r.NextShardIterator) {
        this.cp.closed.push(shardId);
        this.save();
      }
      return false;
    }
    const passing = records.filter((rec) => passesWorkerFilter(this.o.worker, rec as never));
    if (passing.length > 0) {
      const firstSeq = passing[0]!.dynamodb!.SequenceNumber!;
      const failedSeq = await this.handIn(arn, passing);
      if (failedSeq) {
        this.iterators.delete(shardId);
        // checkpoint just before the first failed record; it and what follows are handed in again
        const before = records[records.findIndex((x) => x.dynamodb?.SequenceNumber === failedSeq) - 1];
        if (before) this.commit(shardId, before.dynamodb!.SequenceNumber!);
        const tries = (this.failures.get(failedSeq) ?? 0) + 1;
        this.failures.set(failedSeq, tries);
        const failedRecord = passing.find((x) => x.dynamodb?.SequenceNumber === failedSeq)!;
        const ageSeconds =
          (Date.now() - (failedRecord.dynamodb?.ApproximateCreationDateTime?.getTime() ?? Date.now())) / 1000;
        if (tries > this.o.worker.retryAttempts || ageSeconds > this.o.worker.maxRecordAgeSeconds) {
          this.deadLetter(arn, shardId, failedRecord, tries);
          this.failures.delete(failedSeq);
          this.commit(shardId, failedSeq);
        }
        await sleep(50);
        return true;
      }
      this.failures.delete(firstSeq);
      this.batchLimit = this.o.worker.batchSize;
    }
    this.commit(shardId, records[records.length - 1]!.dynamodb!.SequenceNumber!);
    return true;
  }

  private commit(shardId: string, seq: string) {
    this.cp.shards[shardId] = seq;
    this.save();
  }

  /** Invokes the worker; the sequence number of the first record to hand in again, if any. */
  private async handIn(arn: string, records: StreamRecord[]): Promise<string | undefined> {
    const handler = await this.load();
    const event = toStreamEvent(arn, records, this.o.region);
    const deadline = Date.now() + this.o.worker.timeoutSeconds * 1000;
    try {
      // one invocation: the crash seam may end it after a write, and the batch is handed in again
      const run = await asInvocation(`worker:${this.o.worker.id}`, null, () =>
        routeScope.run(workerGrantee(this.o.worker), () =>
          handler(event, { getRemainingTimeInMillis: () => deadline - Date.now() } as Context),
        ),
      );
      if (run.record.crashed) throw new Error(`crash seam: killed after write ${run.record.crashAfter}`);
      if (run.error !== undefined) throw run.error;
      const result = run.value;
      const failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      return records.find((x) => failed.has(x.dynamodb?.SequenceNumber ?? ''))?.dynamodb?.SequenceNumber;
    } catch (e) {
      this.o.log(`stream ${this.o.worker.id}: the worker failed: ${(e as Error).message}`);
      // bisect on error: the next hand-in takes half the batch, down to the one record that fails
      this.batchLimit = Math.max(1, Math.ceil(records.length / 2));
      return records[0]!.dynamodb!.SequenceNumber!;
    }
  }

  private deadLetter(arn: string, shardId: string, record: StreamRecord, attempts: number) {
    const dir = resolve(this.o.dataDir, 'dead-letters');
    mkdirSync(dir, { recursive: true });
    const seq = record.dynamodb?.SequenceNumber;
    // the shape Lambda sends to an on-failure destination for a stream source
    const entry = {
      requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: attempts },
      timestamp: new Date().toISOString(),
      DDBStreamBatchInfo: {
        shardId,
        startSequenceNumber: seq,
        endSequenceNumber: seq,
        batchSize: 1,
        streamArn: arn,
      },
    };
    appendFileSync(resolve(dir, `${workerFile(this.o.worker.id)}.jsonl`), `${JSON.stringify(entry)}\n`);
    this.o.log(
      `stream ${this.o.worker.id}: record ${seq} sent to the dead-letter file after ${attempts} tries`,
    );
  }
}

/** A DynamoDB Streams Lambda event (aws-lambda's shape) from records of the Streams API. */
export function toStreamEvent(arn: string, records: StreamRecord[], region: string): DynamoDBStreamEvent {
  return {
    Records: records.map((r) => ({
      eventID: r.eventID,
      eventName: r.eventName as 'INSERT' | 'MODIFY' | 'REMOVE',
      eventVersion: r.eventVersion ?? '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: region,
      eventSourceARN: arn,
      dynamodb: {
        ApproximateCreationDateTime: r.dynamodb?.ApproximateCreationDateTime
          ? Math.floor(r.dynamodb.ApproximateCreationDateTime.getTime() / 1000)
          : undefined,
        Keys: r.dynamodb?.Keys as never,
        NewImage: r.dynamodb?.NewImage as never,
        OldImage: r.dynamodb?.OldImage as never,
        SequenceNumber: r.dynamodb?.SequenceNumber,
        SizeBytes: r.dynamodb?.SizeBytes,
        StreamViewType: r.dynamodb?.StreamViewType as 'NEW_IMAGE',
      },
    })),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
