import { logger } from '../observability/logger';
import type { AuditEvent } from '../ports/audit-log';
import type { Clock } from '../ports/clock';
import type { OutboxItem, OutboxStore } from '../ports/mail-outbox';
import type { Mailer } from '../ports/mailer';
import type { MailFailure } from '../ports/package-repository';

export interface MailRetryPolicy {
  /** tries before a mail is given up (and shown on the package) */
  maxAttempts: number;
  /** wait before the second try; doubled for each further one, up to maxDelayMs */
  baseDelayMs: number;
  maxDelayMs: number;
  /** how long one try may hold an item before another run may take it over (a crashed run) */
  leaseMs: number;
}

export const DEFAULT_MAIL_RETRY: MailRetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 2_000,
  maxDelayMs: 120_000,
  leaseMs: 60_000,
};

/** The wait after the n-th failed try (n ≥ 1): exponential, capped. */
export function retryDelayMs(policy: MailRetryPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
}

/**
 * What became of one outbox record: `done` (sent, failed for good, or nothing left to do) or `retry`
 * (the event source must hand the record in again; the item says when the next try is due).
 */
export type Outcome = 'done' | 'retry';

export interface MailOutboxDeps {
  store: OutboxStore;
  mailer: Mailer;
  clock: Clock;
  policy: MailRetryPolicy;
  /** waits (the Lambda sleeps until a retry is due, within its remaining time) */
  sleep: (ms: number) => Promise<void>;
}

/**
 * Sends workflow mails from the outbox (decision 095). Delivery is at most once per item in normal
 * operation: an attempt is claimed by a conditional write before the mail is sent, SENT is written only
 * by the run that holds the claim, and a record delivered again finds the item SENT and sends nothing.
 */
export class MailOutboxWorker {
  constructor(private readonly d: MailOutboxDeps) {}

  /** Handles one outbox record; `budgetMs` is how long this run may still wait for a due retry. */
  async process(id: string, budgetMs: number): Promise<Outcome> {
    const item = await this.d.store.get(id);
    if (!item || item.status === 'SENT') return 'done';
    if (item.status === 'FAILED') {
      // failed for good before failures were recorded with the failure itself (decision 283): record it now
      if (!item.auditedAt)
        await this.d.store.markAudited(item.id, this.d.clock.now(), { events: [failureEvent(item)] });
      return 'done';
    }
    const now = this.d.clock.now().getTime();
    const dueAt = Math.max(
      item.nextAttemptAt ? Date.parse(item.nextAttemptAt) : 0,
      item.leaseUntil ? Date.parse(item.leaseUntil) : 0,
    );
    if (dueAt > now) {
      // wait for the backoff here, as far as this run's time allows: the event source hands a failed
      // record in again at once, and every hand-in counts against its retry limit
      const wait = dueAt - now;
      await this.d.sleep(Math.min(wait, budgetMs));
      if (wait > budgetMs) return 'retry';
    }
    const attempt = item.attempts + 1;
    const leaseUntil = new Date(this.d.clock.now().getTime() + this.d.policy.leaseMs).toISOString();
    // another run claimed it first (a record delivered twice at once): that run owns this attempt
    if (!(await this.d.store.claim(id, item.attempts, leaseUntil))) return 'retry';
    try {
      await this.d.mailer.send({ to: item.to, subject: item.subject, text: item.text });
    } catch (e) {
      return this.failed(item, attempt, reasonOf(e));
    }
    await this.d.store.markSent(id, attempt, this.d.clock.now());
    return 'done';
  }

  /**
   * Gives a pending mail up from outside its tries (decision 217): the event source is about to drop its
   * stream record (too old), or an operator's redrive found that it did (a dead-letter record, or an item
   * left PENDING past the record's age). It becomes FAILED with the reason, on the package and in the
   * audit trail, like a mail that failed every try; false when it was not pending any more.
   */
  async giveUp(id: string, reason: string): Promise<boolean> {
    const item = await this.d.store.get(id);
    if (!item || item.status !== 'PENDING') return false;
    const at = this.d.clock.now();
    const why = item.lastError ? `${reason} (last error: ${item.lastError})` : reason;
    logger().warn('mail given up', { kind: 'mail', id, to: item.to, subject: item.subject, reason: why });
    const failure: MailFailure = {
      to: item.to,
      subject: item.subject,
      reason: why.slice(0, 300),
      at: at.toISOString(),
    };
    const event = failureEvent({ ...item, lastError: failure.reason });
    return this.d.store.markFailed(item, null, failure, { events: [event] });
  }

  private async failed(item: OutboxItem, attempt: number, reason: string): Promise<Outcome> {
    const at = this.d.clock.now();
    logger().warn('mail not sent', {
      kind: 'mail',
      id: item.id,
      to: item.to,
      subject: item.subject,
      attempt,
      reason,
    });
    if (attempt < this.d.policy.maxAttempts) {
      const next = new Date(at.getTime() + retryDelayMs(this.d.policy, attempt)).toISOString();
      await this.d.store.markRetry(item.id, attempt, reason, next);
      return 'retry';
    }
    const failure: MailFailure = { to: item.to, subject: item.subject, reason, at: at.toISOString() };
    // the failure and its event: one transaction (decision 283); a run that lost it to another wrote nothing
    const event = failureEvent({ ...item, attempts: attempt, lastError: reason });
    await this.d.store.markFailed(item, attempt, failure, { events: [event] });
    return 'done';
  }
}

/** The MAIL_FAILED event of an outbox item that failed for good, committed with its FAILED status. */
function failureEvent(item: OutboxItem): AuditEvent {
  return {
    subject: `PKG#${item.packageId}`,
    action: 'MAIL_FAILED',
    meaning: `the mail "${item.subject}" to ${item.to} could not be delivered after ${item.attempts} attempts`,
    actorId: 'system',
    actorName: 'Mail outbox',
    actorRole: 'SYSTEM',
    details: {
      to: item.to,
      subject: item.subject,
      event: item.event,
      reason: item.lastError,
      attempts: item.attempts,
    },
  };
}

/** A short reason a person can act on (the SDK's error name and message, no stack). */
function reasonOf(e: unknown): string {
  const err = e as { name?: string; message?: string };
  return `${err.name ?? 'Error'}: ${err.message ?? String(e)}`.slice(0, 300);
}
