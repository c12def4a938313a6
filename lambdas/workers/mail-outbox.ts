import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { DynamoAuditLog } from '../adapters/dynamodb/audit-log';
import { DynamoOutboxStore } from '../adapters/dynamodb/outbox';
import { SesMailer } from '../adapters/ses/ses-mailer';
import { intEnv, requireEnv, tableName } from '../config/env';
import { loggerFor } from '../middleware/logging';
import { systemClock } from '../ports/clock';
import { DEFAULT_MAIL_RETRY, MailOutboxWorker } from '../services/mail-outbox-worker';

// names this Lambda's logger (the worker's lines use it)
loggerFor('mailOutbox');

let worker: MailOutboxWorker | undefined;
function build(): MailOutboxWorker {
  worker ??= new MailOutboxWorker({
    store: new DynamoOutboxStore(tableName('outbox'), tableName('packages')),
    mailer: new SesMailer(requireEnv('MAIL_FROM')),
    audit: new DynamoAuditLog(tableName('audit'), systemClock),
    clock: systemClock,
    policy: {
      maxAttempts: intEnv('MAIL_MAX_ATTEMPTS', DEFAULT_MAIL_RETRY.maxAttempts),
      baseDelayMs: intEnv('MAIL_RETRY_BASE_MS', DEFAULT_MAIL_RETRY.baseDelayMs),
      maxDelayMs: intEnv('MAIL_RETRY_MAX_MS', DEFAULT_MAIL_RETRY.maxDelayMs),
      leaseMs: DEFAULT_MAIL_RETRY.leaseMs,
    },
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  });
  return worker;
}

/** Time kept back for writing the outcome before the function's timeout. */
const RESERVE_MS = 10_000;

/**
 * The outbox table's stream (new MAIL items; the event source mapping filters) → one try per record.
 * A record whose mail must be tried again is reported as a batch item failure, so the event source hands
 * it in again (from that record on; records already sent are skipped by their SENT status).
 */
export async function handler(event: DynamoDBStreamEvent, context?: Context): Promise<DynamoDBBatchResponse> {
  const w = build();
  const failures: DynamoDBBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const pk = record.dynamodb?.NewImage?.pk?.S ?? record.dynamodb?.Keys?.pk?.S;
    if (!pk?.startsWith('MAIL#')) continue;
    const budget = Math.max(0, (context?.getRemainingTimeInMillis() ?? 60_000) - RESERVE_MS);
    const outcome = await w.process(pk.slice('MAIL#'.length), budget);
    if (outcome === 'retry') failures.push({ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' });
  }
  return { batchItemFailures: failures };
}
