import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { OutboxItem, OutboxStore, RedriveStore } from '../../ports/mail-outbox';
import type { MailFailure, OutboxMail } from '../../ports/package-repository';
import { dynamo } from '../aws-clients';
import { getItem, putNew, type TransactItem, transact, updateIf } from './transact';

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

/** The outbox as the mail worker sees it: every change is a conditional write on the attempt count. */
export class DynamoOutboxStore implements OutboxStore, RedriveStore {
  constructor(
    private readonly table: string,
    private readonly packagesTable: string,
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

  async markFailed(item: OutboxItem, attempt: number | null, failure: MailFailure): Promise<boolean> {
    const at = new Date(failure.at);
    const outboxUpdate = this.whilePending(
      item.id,
      attempt,
      'SET #s = :failed, failedAt = :at, lastError = :e, expiresAtEpoch = :exp REMOVE leaseUntil',
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
      await transact([
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
      ]);
      return true;
    } catch (e) {
      if (!(e instanceof TransactionCanceledException)) throw e;
      const [mine, pkg] = e.CancellationReasons ?? [];
      if (mine?.Code === 'ConditionalCheckFailed') return false;
      // the package was deleted meanwhile: the failure is recorded on the outbox item and in the audit trail
      if (pkg?.Code === 'ConditionalCheckFailed') return updateIf(outboxUpdate);
      throw e;
    }
  }

  async markAudited(id: string, at: Date): Promise<void> {
    await dynamo().send(
      new UpdateCommand({
        TableName: this.table,
        Key: outboxKey(id),
        UpdateExpression: 'SET auditedAt = :at',
        ExpressionAttributeValues: { ':at': at.toISOString() },
      }),
    );
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

  async redrive(item: OutboxItem, fresh: OutboxItem, at: Date): Promise<boolean> {
    const { status: _s, attempts: _a, ...mail } = fresh;
    try {
      await transact([
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
      ]);
      return true;
    } catch (e) {
      if (e instanceof TransactionCanceledException) return false;
      throw e;
    }
  }

  async clearFailure(packageId: string, to: string, subject: string): Promise<void> {
    const key = { pk: `PKG#${packageId}`, sk: 'PKG' };
    // read, then remove the entries of this mail at the version read; a save in between reads again
    for (let tries = 0; tries < 5; tries++) {
      const pkg = await getItem(this.packagesTable, key);
      if (!pkg) return;
      const failures = (pkg.mailFailures ?? []) as MailFailure[];
      const at = failures.flatMap((f, i) => (f.to === to && f.subject === subject ? [i] : []));
      if (at.length === 0) return;
      const ok = await updateIf({
        TableName: this.packagesTable,
        Key: key,
        UpdateExpression: `REMOVE ${at.map((i) => `mailFailures[${i}]`).join(', ')} ADD #v :one`,
        ConditionExpression: '#v = :v',
        ExpressionAttributeNames: { '#v': 'version' },
        ExpressionAttributeValues: { ':v': pkg.version, ':one': 1 },
      });
      if (ok) return;
    }
    throw new Error(`the failures of package ${packageId} kept changing: not cleared`);
  }
}
