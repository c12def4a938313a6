import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { WORKERS } from '../../shared/api/workers';
import { mailOutboxWorker } from '../composition-mail-outbox';
import { loggerFor } from '../observability/logger';
import type { Outcome } from '../services/mail-outbox-worker';

// names this Lambda's logger (the worker's lines use it)
loggerFor('mailOutbox');

/** Time kept back for writing the outcome before the function's timeout. */
const RESERVE_MS = 10_000;

const ROW = WORKERS.find((w) => w.id === 'mailOutbox')!;
/**
 * A record this close to the event source's maximum record age may not be handed in again: its mail is
 * given up here, with the reason, instead of being dropped to the dead-letter queue with the item still
 * PENDING (decision 217).
 */
const LAST_CHANCE_MS = (ROW.maxRecordAgeSeconds - 3 * ROW.timeoutSeconds) * 1000;

/**
 * The outbox table's stream (new MAIL items; the event source mapping filters) → one try per record.
 * A record whose mail must be tried again is reported as a batch item failure, so the event source hands
 * it in again (from that record on; records already sent are skipped by their SENT status).
 */
export async function handler(event: DynamoDBStreamEvent, context?: Context): Promise<DynamoDBBatchResponse> {
  const w = mailOutboxWorker();
  const failures: DynamoDBBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const pk = record.dynamodb?.NewImage?.pk?.S ?? record.dynamodb?.Keys?.pk?.S;
    if (!pk?.startsWith('MAIL#')) continue;
    const id = pk.slice('MAIL#'.length);
    const budget = Math.max(0, (context?.getRemainingTimeInMillis() ?? 60_000) - RESERVE_MS);
    const created = record.dynamodb?.ApproximateCreationDateTime;
    const lastChance = created !== undefined && Date.now() - created * 1000 >= LAST_CHANCE_MS;
    let outcome: Outcome;
    try {
      outcome = await w.process(id, budget);
    } catch (e) {
      if (!lastChance) throw e;
      outcome = 'retry';
    }
    if (outcome === 'retry' && lastChance) {
      await w.giveUp(id, `Not delivered within ${ROW.maxRecordAgeSeconds / 3600} hours of being queued`);
      outcome = 'done';
    }
    if (outcome === 'retry') failures.push({ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' });
  }
  return { batchItemFailures: failures };
}
