import { DynamoOutboxStore } from './adapters/dynamodb/outbox';
import { SesMailer } from './adapters/ses/ses-mailer';
import { intEnv, requireEnv, tableName } from './config/env';
import { countCommitted } from './observability/metrics';
import { systemClock } from './ports/clock';
import { DEFAULT_MAIL_RETRY, MailOutboxWorker } from './services/mail-outbox-worker';

/**
 * The mail-outbox worker's service and adapters (the outbox table, SES). Workers import their services
 * from a composition module like the handlers do, never adapters; this one is apart so only that worker
 * bundles it.
 */
let worker: MailOutboxWorker | undefined;
export function mailOutboxWorker(): MailOutboxWorker {
  worker ??= new MailOutboxWorker({
    store: new DynamoOutboxStore(tableName('outbox'), tableName('packages'), {
      table: () => tableName('audit'),
      clock: systemClock,
      // a mail given up is its MAIL_FAILED event: counted once it commits (decision 312)
      committed: (events) => countCommitted(events),
    }),
    mailer: new SesMailer(requireEnv('MAIL_FROM')),
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
