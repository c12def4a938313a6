import type { OutboxMail } from '../../ports/package-repository';

/**
 * The outbox of committed workflow mails (decision 095), in memory. Like the DynamoDB outbox's
 * conditional Put, a mail id is written at most once: `accepts` says whether a batch may commit.
 */
export class MemoryOutbox {
  private readonly byId = new Map<string, OutboxMail>();

  /** The mails in the order they were committed. */
  get mails(): OutboxMail[] {
    return [...this.byId.values()].map((m) => ({ ...m }));
  }

  /** False when a mail of the batch was committed before (the transaction carrying it would fail). */
  accepts(mails: readonly OutboxMail[]): boolean {
    return mails.every((m) => !this.byId.has(m.id));
  }

  /** Commits the batch; one mail per distinct id (a person who is initiator and deliverer gets one). */
  put(mails: readonly OutboxMail[]): void {
    for (const m of mails) if (!this.byId.has(m.id)) this.byId.set(m.id, { ...m });
  }
}
