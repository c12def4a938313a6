import type { Recorded } from './audit-log';
import type { MailFailure, OutboxMail } from './package-repository';

/** An outbox item as stored: the mail and where its delivery stands. */
export interface OutboxItem extends OutboxMail {
  status: 'PENDING' | 'SENT' | 'FAILED';
  /** attempts claimed so far (each claim is one try to send) */
  attempts: number;
  /** while an attempt runs: until when it holds the item */
  leaseUntil?: string;
  nextAttemptAt?: string;
  lastError?: string;
  auditedAt?: string;
  /** a redriven item: when, and the id of the item that sends it again (ops:redrive) */
  redrivenAt?: string;
  redrivenTo?: string;
  /** an item made by a redrive: the id of the first item of this mail, and how many redrives it took */
  redriveOf?: string;
  redriveCount?: number;
}

/** The outbox as the worker changes it: every write is conditional on the status and attempt count. */
export interface OutboxStore {
  get(id: string): Promise<OutboxItem | null>;
  /** PENDING with `attempts` tries → attempts + 1, held until `leaseUntil`; false if another run moved it */
  claim(id: string, attempts: number, leaseUntil: string): Promise<boolean>;
  markSent(id: string, attempt: number, at: Date): Promise<boolean>;
  markRetry(id: string, attempt: number, reason: string, nextAttemptAt: string): Promise<void>;
  /**
   * FAILED (and recorded: `auditedAt`), the failure appended to the package and its events, in one
   * transaction (decision 283); false if another run moved it. `attempt` null: whatever the try count (the
   * mail is given up from outside the tries: giveUp).
   */
  markFailed(
    item: OutboxItem,
    attempt: number | null,
    failure: MailFailure,
    commit?: Recorded,
  ): Promise<boolean>;
  /**
   * A FAILED item written before its failure was recorded with it: `auditedAt` and its events, in one
   * transaction; false when it was recorded already (another run, a retried batch).
   */
  markAudited(id: string, at: Date, commit?: Recorded): Promise<boolean>;
}

/** The outbox as a redrive changes it (lambdas/adapters/dynamodb/outbox.ts). */
export interface RedriveStore {
  get(id: string): Promise<OutboxItem | null>;
  /** FAILED items not redriven yet, and PENDING ones (the caller judges whether they are stuck) */
  unsettled(): Promise<OutboxItem[]>;
  /**
   * In one transaction (decision 283): `fresh` as a new PENDING item (its INSERT starts the mail worker
   * again), the failed `item` marked redriven to it, the failures of this mail removed from its package (it
   * is being sent again) and the events; false when the item was not FAILED or was redriven already.
   */
  redrive(item: OutboxItem, fresh: OutboxItem, at: Date, commit?: Recorded): Promise<boolean>;
}
