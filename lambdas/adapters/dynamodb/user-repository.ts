import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Role } from '../../../shared/domain/roles';
import type {
  EmailToken,
  QuotaResult,
  ThrottleState,
  UserRecord,
  UserRepository,
} from '../../ports/user-repository';
import { dynamo } from '../aws-clients';
import { queryAll } from './query-all';

const userPk = (id: string) => `USER#${id}`;
const emailPk = (email: string) => `EMAIL#${email.toLowerCase()}`;
const throttlePk = (key: string) => `THROTTLE#${key}`;
const tokenPk = (hash: string) => `EMAILTOKEN#${hash}`;
/** used and expired links are kept a week (to answer "expired" or "used" clearly), then TTL removes them */
const TOKEN_KEEP_SECONDS = 7 * 24 * 60 * 60;

type UserItem = UserRecord & { pk: string; kind: 'USER' };

function toRecord(item: Record<string, unknown>): UserRecord {
  const { pk: _pk, kind: _kind, ...rest } = item as unknown as UserItem;
  return rest;
}

function cancelledBy(e: unknown, index: number): boolean {
  return (
    e instanceof TransactionCanceledException &&
    e.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed'
  );
}

export class DynamoUserRepository implements UserRepository {
  constructor(private readonly table: string) {}

  async create(user: UserRecord): Promise<boolean> {
    try {
      await dynamo().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.table,
                Item: { pk: emailPk(user.email), kind: 'EMAIL', userId: user.id, claimedAt: user.createdAt },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: this.table,
                Item: { ...user, pk: userPk(user.id), kind: 'USER' },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
      return true;
    } catch (e) {
      if (cancelledBy(e, 0)) return false;
      throw e;
    }
  }

  async getById(id: string): Promise<UserRecord | null> {
    const r = await dynamo().send(
      new GetCommand({ TableName: this.table, Key: { pk: userPk(id) }, ConsistentRead: true }),
    );
    return r.Item ? toRecord(r.Item) : null;
  }

  async getByEmail(email: string): Promise<UserRecord | null> {
    const claim = await dynamo().send(
      new GetCommand({ TableName: this.table, Key: { pk: emailPk(email) }, ConsistentRead: true }),
    );
    if (!claim.Item || claim.Item.deletedAt || typeof claim.Item.userId !== 'string') return null;
    return this.getById(claim.Item.userId);
  }

  async list(): Promise<UserRecord[]> {
    const items = await queryAll({
      TableName: this.table,
      IndexName: 'byKind',
      KeyConditionExpression: 'kind = :k',
      ExpressionAttributeValues: { ':k': 'USER' },
    });
    return items.map(toRecord);
  }

  async listByRole(role: Role): Promise<UserRecord[]> {
    const items = await queryAll({
      TableName: this.table,
      IndexName: 'byRole',
      KeyConditionExpression: 'userRole = :r',
      ExpressionAttributeValues: { ':r': role },
    });
    return items.map(toRecord);
  }

  async update(
    next: UserRecord,
    expectedVersion: number,
    previousEmail: string,
  ): Promise<'ok' | 'conflict' | 'emailTaken'> {
    const putUser = {
      Put: {
        TableName: this.table,
        Item: { ...next, pk: userPk(next.id), kind: 'USER' },
        ConditionExpression: '#v = :v',
        ExpressionAttributeNames: { '#v': 'version' },
        ExpressionAttributeValues: { ':v': expectedVersion },
      },
    };
    const emailChanged = next.email.toLowerCase() !== previousEmail.toLowerCase();
    const items = emailChanged
      ? [
          putUser,
          {
            Put: {
              TableName: this.table,
              Item: { pk: emailPk(next.email), kind: 'EMAIL', userId: next.id, claimedAt: next.updatedAt },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          // The old address is released: only deleted accounts keep their email blocked.
          {
            Delete: {
              TableName: this.table,
              Key: { pk: emailPk(previousEmail) },
              ConditionExpression: 'userId = :id',
              ExpressionAttributeValues: { ':id': next.id },
            },
          },
        ]
      : [putUser];
    try {
      await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
      return 'ok';
    } catch (e) {
      if (cancelledBy(e, 1)) return 'emailTaken';
      if (cancelledBy(e, 0) || cancelledBy(e, 2)) return 'conflict';
      throw e;
    }
  }

  async delete(ids: string[], at: string): Promise<string[]> {
    const deleted: string[] = [];
    for (const id of ids) {
      const user = await this.getById(id);
      if (!user) continue;
      await dynamo().send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: this.table, Key: { pk: userPk(id) } } },
            {
              Update: {
                TableName: this.table,
                Key: { pk: emailPk(user.email) },
                UpdateExpression: 'SET deletedAt = :at, kind = :k, userId = :id',
                ExpressionAttributeValues: { ':at': at, ':k': 'EMAIL', ':id': id },
              },
            },
          ],
        }),
      );
      deleted.push(id);
    }
    return deleted;
  }

  async discard(user: UserRecord): Promise<void> {
    await dynamo().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: this.table,
              Key: { pk: userPk(user.id) },
              ConditionExpression: '#v = :v',
              ExpressionAttributeNames: { '#v': 'version' },
              ExpressionAttributeValues: { ':v': user.version },
            },
          },
          {
            Delete: {
              TableName: this.table,
              Key: { pk: emailPk(user.email) },
              ConditionExpression: 'userId = :id',
              ExpressionAttributeValues: { ':id': user.id },
            },
          },
        ],
      }),
    );
  }

  async updateAll(changes: { next: UserRecord; expectedVersion: number }[]): Promise<boolean> {
    try {
      await dynamo().send(
        new TransactWriteCommand({
          TransactItems: changes.map(({ next, expectedVersion }) => ({
            Put: {
              TableName: this.table,
              Item: { ...next, pk: userPk(next.id), kind: 'USER' },
              ConditionExpression: '#v = :v',
              ExpressionAttributeNames: { '#v': 'version' },
              ExpressionAttributeValues: { ':v': expectedVersion },
            },
          })),
        }),
      );
      return true;
    } catch (e) {
      if (e instanceof TransactionCanceledException) return false;
      throw e;
    }
  }

  async putEmailToken(token: EmailToken): Promise<void> {
    await dynamo().send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...token,
          pk: tokenPk(token.tokenHash),
          kind: 'EMAIL_TOKEN',
          expiresAt: Math.floor(Date.parse(token.validUntil) / 1000) + TOKEN_KEEP_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getEmailToken(tokenHash: string): Promise<EmailToken | null> {
    const r = await dynamo().send(
      new GetCommand({ TableName: this.table, Key: { pk: tokenPk(tokenHash) }, ConsistentRead: true }),
    );
    if (!r.Item) return null;
    const { pk: _pk, kind: _kind, expiresAt: _exp, ...rest } = r.Item;
    return rest as EmailToken;
  }

  async markEmailTokenUsed(tokenHash: string, at: string): Promise<boolean> {
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: tokenPk(tokenHash) },
          UpdateExpression: 'SET usedAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt)',
          ExpressionAttributeValues: { ':at': at },
        }),
      );
      return true;
    } catch (e) {
      if (e instanceof ConditionalCheckFailedException) return false;
      throw e;
    }
  }

  async getThrottle(key: string): Promise<ThrottleState> {
    const r = await dynamo().send(
      new GetCommand({ TableName: this.table, Key: { pk: throttlePk(key) }, ConsistentRead: true }),
    );
    const nowEpoch = Math.floor(Date.now() / 1000);
    if (!r.Item || (typeof r.Item.expiresAt === 'number' && r.Item.expiresAt < nowEpoch)) {
      return { failures: 0, lastFailureAt: null };
    }
    return {
      failures: Number(r.Item.failures ?? 0),
      lastFailureAt: (r.Item.lastFailureAt as string) ?? null,
    };
  }

  async recordFailure(
    key: string,
    at: string,
    expiresAtEpoch: number,
  ): Promise<{ failures: number; firstInWindow: boolean }> {
    const values = { ':one': 1, ':at': at, ':exp': expiresAtEpoch, ':k': 'THROTTLE' };
    try {
      const r = await dynamo().send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: throttlePk(key) },
          UpdateExpression: 'ADD failures :one SET lastFailureAt = :at, expiresAt = :exp, kind = :k',
          // counts on only while the earlier failures are remembered (the same test as getThrottle's)
          ConditionExpression: 'attribute_not_exists(expiresAt) OR expiresAt >= :now',
          ExpressionAttributeValues: { ...values, ':now': Math.floor(Date.parse(at) / 1000) },
          ReturnValues: 'ALL_OLD',
        }),
      );
      const before = r.Attributes;
      return { failures: Number(before?.failures ?? 0) + 1, firstInWindow: before === undefined };
    } catch (e) {
      if (!(e instanceof ConditionalCheckFailedException)) throw e;
      // An expired counter that TTL has not swept yet (it deletes lazily): this failure starts a new count,
      // or one typo after the quiet period would lock the owner out again at once.
      await dynamo().send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: throttlePk(key) },
          UpdateExpression: 'SET failures = :one, lastFailureAt = :at, expiresAt = :exp, kind = :k',
          ExpressionAttributeValues: values,
        }),
      );
      return { failures: 1, firstInWindow: true };
    }
  }

  async forgiveFailures(key: string): Promise<void> {
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: throttlePk(key) },
          UpdateExpression: 'SET failures = :zero',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':zero': 0 },
        }),
      );
    } catch (e) {
      if (!(e instanceof ConditionalCheckFailedException)) throw e;
    }
  }

  async takeQuota(key: string, limit: number, windowSeconds: number, at: Date): Promise<QuotaResult> {
    const now = Math.floor(at.getTime() / 1000);
    const Key = { pk: throttlePk(key) };
    const attempt = async (
      input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName' | 'Key'>,
    ) => {
      try {
        await dynamo().send(new UpdateCommand({ TableName: this.table, Key, ...input }));
        return true;
      } catch (e) {
        if (e instanceof ConditionalCheckFailedException) return false;
        throw e;
      }
    };
    if (limit < 1) return { ok: false, retryAfterSeconds: windowSeconds };
    // Two rounds: a request that loses the race to open the window uses the window the winner opened.
    for (let round = 0; round < 2; round++) {
      // within an open window that still has room: one more use
      if (
        await attempt({
          UpdateExpression: 'ADD uses :one',
          ConditionExpression: 'expiresAt > :now AND uses < :limit',
          ExpressionAttributeValues: { ':one': 1, ':now': now, ':limit': limit },
        })
      )
        return { ok: true };
      // no window, or an ended one (TTL deletes lazily): this use opens a new window
      if (
        await attempt({
          UpdateExpression: 'SET uses = :one, expiresAt = :end, kind = :k',
          ConditionExpression: 'attribute_not_exists(expiresAt) OR expiresAt <= :now',
          ExpressionAttributeValues: {
            ':one': 1,
            ':end': now + windowSeconds,
            ':now': now,
            ':k': 'THROTTLE',
          },
        })
      )
        return { ok: true };
    }
    // an open window with no room left
    const r = await dynamo().send(new GetCommand({ TableName: this.table, Key, ConsistentRead: true }));
    const end = Number(r.Item?.expiresAt ?? now + 1);
    return { ok: false, retryAfterSeconds: Math.max(1, end - now) };
  }

  async returnQuota(key: string): Promise<void> {
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: throttlePk(key) },
          UpdateExpression: 'ADD uses :minus',
          ConditionExpression: 'uses > :zero',
          ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
        }),
      );
    } catch (e) {
      if (!(e instanceof ConditionalCheckFailedException)) throw e;
    }
  }

  async clearThrottle(key: string): Promise<void> {
    await dynamo().send(new DeleteCommand({ TableName: this.table, Key: { pk: throttlePk(key) } }));
  }
}
