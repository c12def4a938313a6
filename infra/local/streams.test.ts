import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { StreamWorker } from '../../shared/api/workers';
import { StreamPoller } from './streams';

/** The local event source mapping's rules, on an in-memory stream (no DynamoDB Local). */
const WORKER: StreamWorker = {
  id: 'mailOutbox',
  source: 'outbox',
  kind: 'MAIL',
  uses: { tables: ['outbox'] },
  batchSize: 4,
  retryAttempts: 2,
  maxRecordAgeSeconds: 3600,
  timeoutSeconds: 60,
  summary: 'test',
};

interface FakeRecord {
  eventName: 'INSERT' | 'MODIFY';
  kind: string;
  seq: string;
}

function fakeStream(records: FakeRecord[]) {
  const toRecord = (r: FakeRecord) => ({
    eventID: `e${r.seq}`,
    eventName: r.eventName,
    dynamodb: {
      SequenceNumber: r.seq,
      ApproximateCreationDateTime: new Date(),
      Keys: { pk: { S: `MAIL#${r.seq}` } },
      NewImage: { pk: { S: `MAIL#${r.seq}` }, kind: { S: r.kind } },
      StreamViewType: 'NEW_IMAGE',
    },
  });
  return {
    destroy() {},
    async send(cmd: { constructor: { name: string }; input: Record<string, unknown> }) {
      switch (cmd.constructor.name) {
        case 'DescribeStreamCommand':
          return { StreamDescription: { Shards: [{ ShardId: 'shard-1' }] } };
        case 'GetShardIteratorCommand':
          return { ShardIterator: JSON.stringify({ after: cmd.input.SequenceNumber ?? null }) };
        case 'GetRecordsCommand': {
          const { after } = JSON.parse(String(cmd.input.ShardIterator)) as { after: string | null };
          const rest = records.filter((r) => after === null || Number(r.seq) > Number(after));
          const page = rest.slice(0, Number(cmd.input.Limit));
          const next = { after: page.at(-1)?.seq ?? after };
          return { Records: page.map(toRecord), NextShardIterator: JSON.stringify(next) };
        }
        default:
          throw new Error(`unexpected ${cmd.constructor.name}`);
      }
    },
  };
}

const dynamo = {
  send: async () => ({ Table: { LatestStreamArn: 'arn:aws:dynamodb:local:000:table/t/stream/1' } }),
} as unknown as DynamoDBClient;

function poller(records: FakeRecord[], handler: (e: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'frp-streams-'));
  const p = new StreamPoller({
    worker: WORKER,
    table: 't',
    dynamo,
    endpoint: 'http://127.0.0.1:9',
    region: 'us-east-1',
    dataDir,
    log: () => {},
    streams: fakeStream(records) as never,
    handler,
  });
  return { p, dataDir };
}

const seqs = (e: DynamoDBStreamEvent) => e.Records.map((r) => r.dynamodb?.SequenceNumber);

describe('local stream poller', () => {
  it("hands in only INSERTs of the worker's kind, as a DynamoDB Streams event, once", async () => {
    const seen: DynamoDBStreamEvent[] = [];
    const { p } = poller(
      [
        { eventName: 'INSERT', kind: 'MAIL', seq: '1' },
        { eventName: 'MODIFY', kind: 'MAIL', seq: '2' },
        { eventName: 'INSERT', kind: 'OTHER', seq: '3' },
        { eventName: 'INSERT', kind: 'MAIL', seq: '4' },
      ],
      async (e) => {
        seen.push(e);
        return { batchItemFailures: [] };
      },
    );
    await p.tick();
    await p.tick();
    expect(seen.map(seqs)).toEqual([['1', '4']]);
    expect(seen[0]!.Records[0]).toMatchObject({
      eventName: 'INSERT',
      eventSource: 'aws:dynamodb',
      eventSourceARN: 'arn:aws:dynamodb:local:000:table/t/stream/1',
      dynamodb: { NewImage: { kind: { S: 'MAIL' } }, SequenceNumber: '1' },
    });
  });

  it('hands a failed record in again with the ones after it, not the ones before', async () => {
    const seen: DynamoDBStreamEvent[] = [];
    let fail = true;
    const { p } = poller(
      ['1', '2', '3'].map((seq) => ({ eventName: 'INSERT' as const, kind: 'MAIL', seq })),
      async (e) => {
        seen.push(e);
        if (fail) {
          fail = false;
          return { batchItemFailures: [{ itemIdentifier: '2' }] };
        }
        return { batchItemFailures: [] };
      },
    );
    await p.tick();
    await p.tick();
    await p.tick();
    expect(seen.map(seqs)).toEqual([
      ['1', '2', '3'],
      ['2', '3'],
    ]);
  });

  it('halves the batch when the worker throws (bisect)', async () => {
    const seen: DynamoDBStreamEvent[] = [];
    let throws = true;
    const { p } = poller(
      ['1', '2', '3', '4'].map((seq) => ({ eventName: 'INSERT' as const, kind: 'MAIL', seq })),
      async (e) => {
        seen.push(e);
        if (throws) {
          throws = false;
          throw new Error('crash');
        }
        return { batchItemFailures: [] };
      },
    );
    await p.tick();
    await p.tick();
    expect(seen.map(seqs)).toEqual([
      ['1', '2', '3', '4'],
      ['1', '2'],
    ]);
  });

  it('sends a record that keeps failing to the dead-letter file after the retries, and moves on', async () => {
    const seen: DynamoDBStreamEvent[] = [];
    const { p, dataDir } = poller(
      ['1', '2'].map((seq) => ({ eventName: 'INSERT' as const, kind: 'MAIL', seq })),
      async (e) => {
        seen.push(e);
        const one = e.Records.find((r) => r.dynamodb?.SequenceNumber === '1');
        return { batchItemFailures: one ? [{ itemIdentifier: '1' }] : [] };
      },
    );
    for (let i = 0; i < 5; i++) await p.tick();
    // the first hand-in and two retries, then record 2 alone
    expect(seen.map(seqs)).toEqual([['1', '2'], ['1', '2'], ['1', '2'], ['2']]);
    const file = join(dataDir, 'dead-letters', 'mail-outbox.jsonl');
    expect(existsSync(file)).toBe(true);
    const entry = JSON.parse(readFileSync(file, 'utf8').trim()) as {
      DDBStreamBatchInfo: { startSequenceNumber: string; shardId: string };
      requestContext: { condition: string };
    };
    expect(entry.DDBStreamBatchInfo).toMatchObject({ startSequenceNumber: '1', shardId: 'shard-1' });
    expect(entry.requestContext.condition).toBe('RetryAttemptsExhausted');
  });
});
