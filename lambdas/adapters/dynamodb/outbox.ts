import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Recorded } from '../../ports/audit-log';
import type { OutboxItem, OutboxStore, RedriveStore } from '../../ports/mail-outbox';
import type { MailFailure, OutboxMail } from '../../ports/package-repository';
import { dynamo } from '../aws-clients';
import { type AuditTable, commitRecorded, NO_AUDIT_TABLE, writeRecorded } from './audit-commit';
import { cancelledBy, getItem, putNew, type TransactItem, updateIf } from './transact';

type TransactUpdate = NonNullable<TransactItem['Update']>;

/** How long settled (sent or failed) outbox items stay before DynamoDB's TTL removes them. */
const SETTLED_TTL_SECONDS = 90 * 24 * 60 * 60;

export const outboxKey = (id: string) => ({ pk: `MAIL#${id}` });

/**
 * The Put of one outbox mail inside a state change's transaction. `attribute_not_exists` makes the
 * deterministic id the guard against mailing one person twice for one event.
 */
export function outboxPut(table: string, mail: OutboxMail) {
  return putNew(table, { ...outboxKey(mail.id), kind: 'MAIL', status: 'PENDING', attempts: 0, ...mail });
}

/** One outbox Put per distinct mail id (a person who is both initiator and deliverer gets one mail). */
export function outboxPuts(table: string, mails: readonly OutboxMail[]) {
  const seen = new Set<string>();
  return mails.filter((m) => !seen.has(m.id) && seen.add(m.id)).map((m) => outboxPut(table, m));
}

const epochIn = (from: Date, seconds: number) => Math.floor(from.getTime() / 1000) + seconds;

/** tries of a redrive whose package kept changing under it */
const REDRIVE_ATTEMPTS = 5;

/**
 * The outbox as the mail worker sees it: every change is a conditional write on the attempt count; a
 * failure and a redrive commit with their audit events (decision 283).
 */
export class DynamoOutboxStore implements OutboxStore, RedriveStore {
  constructor(
    private readonly table: string,
    private readonly packagesTable: string,
    private readonly audit: AuditTable = NO_AUDIT_TABLE,
  ) {}

  async get(id: string): Promise<OutboxItem | null> {
    const item = await getItem(this.table, outboxKey(id));
    return item ? (item as unknown as OutboxItem) : null;
  }

  /**
   * An update of outbox item `id` while it is still pending at attempt `attempt` (no one else moved it);
   * `attempt` null: while pending, at any attempt.
   */
  private whilePending(
    id: string,
    attempt: number | null,
    UpdateExpression: string,
    values: Record<string, unknown>,
  ): TransactUpdate {
    return {
      TableName: this.table,
      Key: outboxKey(id),
      UpdateExpression,
      ConditionExpression: attempt === null ? '#s = :pending' : '#s = :pending AND attempts = :n',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':pending': 'PENDING',
        ...(attempt === null ? {} : { ':n': attempt }),
        ...values,
      },
    };
  }

  claim(id: string, attempts: number, leaseUntil: string): Promise<boolean> {
    return updateIf(
      this.whilePending(id, attempts, 'SET attempts = :next, leaseUntil = :lease', {
        ':next': attempts + 1,
        ':lease': leaseUntil,
      }),
    );
  }

  markSent(id: string, attempt: number, at: Date): Promise<boolean> {
    return updateIf(
      this.whilePending(
        id,
        attempt,
        'SET #s = :sent, sentAt = :at, expiresAtEpoch = :exp REMOVE leaseUntil, nextAttemptAt',
        { ':sent': 'SENT', ':at': at.toISOString(), ':exp': epochIn(at, SETTLED_TTL_SECONDS) },
      ),
    );
  }

  async markRetry(id: string, attempt: number, reason: string, nextAttemptAt: string): Promise<void> {
    await updateIf(
      this.whilePending(id, attempt, 'SET lastError = :e, nextAttemptAt = :next REMOVE leaseUntil', {
        ':e': reason,
        ':next': nextAttemptAt,
      }),
    );
  }

  async markFailed(
    item: OutboxItem,
    attempt: number | null,
    failure: MailFailure,
    commit: Recorded = {},
  ): Promise<boolean> {
    const at = new Date(failure.at);
    // recorded with it: `auditedAt` says its event is in the trail (markAudited is for items failed before)
    const outboxUpdate = this.whilePending(
      item.id,
      attempt,
      'SET #s = :failed, failedAt = :at, lastError = :e, expiresAtEpoch = :exp, auditedAt = :at REMOVE leaseUntil',
      {
        ':failed': 'FAILED',
        ':at': failure.at,
        ':e': failure.reason,
        ':exp': epochIn(at, SETTLED_TTL_SECONDS),
      },
    );
    try {
      // The failure lands on the package in the same transaction, and moves its version on so a save
      // based on an earlier read loses (409) instead of dropping the failure.
      await writeRecorded(
        this.audit,
        [
          { Update: outboxUpdate },
          {
            Update: {
              TableName: this.packagesTable,
              Key: { pk: `PKG#${item.packageId}`, sk: 'PKG' },
              UpdateExpression:
                'SET mailFailures = list_append(if_not_exists(mailFailures, :none), :f) ADD #v :one',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeNames: { '#v': 'version' },
              ExpressionAttributeValues: { ':none': [], ':f': [failure], ':one': 1 },
            },
          },
        ],
        commit.events,
      );
      return true;
    } catch (e) {
      if (!(e instanceof TransactionCanceledException)) throw e;
      const [mine, pkg] = e.CancellationReasons ?? [];
      if (mine?.Code === 'ConditionalCheckFailed') return false;
      // the package was deleted meanwhile: the failure is recorded on the outbox item and in the audit trail
      if (pkg?.Code === 'ConditionalCheckFailed') return this.markFailedAlone(outboxUpdate, commit);
      throw e;
    }
  }

  /** The failure of a mail whose package is gone: the outbox item and the events. */
  private async markFailedAlone(outboxUpdate: TransactUpdate, commit: Recorded): Promise<boolean> {
    try {
      await writeRecorded(this.audit, [{ Update: outboxUpdate }], commit.events);
      return true;
    } catch (e) {
      if (cancelledBy(e, 0)) return false;
      throw e;
    }
  }

  async markAudited(id: string, at: Date, commit: Recorded = {}): Promise<boolean> {
    const update: TransactUpdate = {
      TableName: this.table,
      Key: outboxKey(id),
      UpdateExpression: 'SET auditedAt = :at',
      ConditionExpression: '#s = :failed AND attribute_not_exists(auditedAt)',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':at': at.toISOString(), ':failed': 'FAILED' },
    };
    try {
      await writeRecorded(this.audit, [{ Update: update }], commit.events);
      return true;
    } catch (e) {
      if (cancelledBy(e, 0)) return false;
      throw e;
    }
  }

  async unsettled(): Promise<OutboxItem[]> {
    const out: OutboxItem[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const r = await dynamo().send(
        new ScanCommand({
          TableName: this.table,
          FilterExpression: '(#s = :failed OR #s = :pending) AND attribute_not_exists(redrivenAt)',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':failed': 'FAILED', ':pending': 'PENDING' },
          ExclusiveStartKey,
          ConsistentRead: true,
        }),
      );
      out.push(...((r.Items ?? []) as unknown as OutboxItem[]));
      ExclusiveStartKey = r.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return out;
  }

  async redrive(item: OutboxItem, fresh: OutboxItem, at: Date, commit: Recorded = {}): Promise<boolean> {
    const { status: _s, attempts: _a, ...mail } = fresh;
    const key = { pk: `PKG#${item.packageId}`, sk: 'PKG' };
    let losses = 0;
    return commitRecorded<boolean>(
      this.audit,
      async (lost) => {
        if (lost === 'state') {
          // redriven or settled by another run meanwhile: nothing to do; else the package moved: read again
          const now = await this.get(item.id);
          if (now?.status !== 'FAILED' || now.redrivenAt) return { done: false };
          if (++losses >= REDRIVE_ATTEMPTS)
            throw new Error(`the failures of package ${item.packageId} kept changing: not redriven`);
        }
        const items: TransactItem[] = [
          outboxPut(this.table, { ...mail, createdAt: at.toISOString() } as OutboxMail),
          {
            Update: {
              TableName: this.table,
              Key: outboxKey(item.id),
              UpdateExpression: 'SET redrivenAt = :at, redrivenTo = :to',
              ConditionExpression: '#s = :failed AND attribute_not_exists(redrivenAt)',
              ExpressionAttributeNames: { '#s': 'status' },
              ExpressionAttributeValues: { ':failed': 'FAILED', ':at': at.toISOString(), ':to': fresh.id },
            },
          },
        ];
        // the failures of this mail leave the package (it is being sent again), at the version read
        const pkg = await getItem(this.packagesTable, key);
        const failures = (pkg?.mailFailures ?? []) as MailFailure[];
        const idx = failures.flatMap((f, i) => (f.to === item.to && f.subject === item.subject ? [i] : []));
        if (pkg && idx.length > 0)
          items.push({
            Update: {
              TableName: this.packagesTable,
              Key: key,
              UpdateExpression: `REMOVE ${idx.map((i) => `mailFailures[${i}]`).join(', ')} ADD #v :one`,
              ConditionExpression: '#v = :v',
              ExpressionAttributeNames: { '#v': 'version' },
              ExpressionAttributeValues: { ':v': pkg.version, ':one': 1 },
            },
          });
        return { items, events: commit.events ?? [], result: true };
      },
      { retryStateConflicts: true },
    );
  }
}
