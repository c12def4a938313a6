import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Role } from '../../../shared/domain/roles';
import type { AuditEvent } from '../../ports/audit-log';
import type {
  EmailToken,
  QuotaResult,
  ThrottleState,
  UserCommit,
  UserRecord,
  UserRepository,
} from '../../ports/user-repository';
import { dynamo } from '../aws-clients';
import { type AuditTable, NO_AUDIT_TABLE, writeRecorded } from './audit-commit';
import { queryAll } from './query-all';
import {
  cancelledBy,
  conditionFailed,
  createItem,
  getItem,
  putAtVersion,
  putNew,
  queryKind,
  type TransactItem,
  updateIf,
} from './transact';
import { accountDeletion } from './user-delete';

const userPk = (id: string) => `USER#${id}`;
const emailPk = (email: string) => `EMAIL#${email.toLowerCase()}`;
const throttlePk = (key: string) => `THROTTLE#${key}`;
const tokenPk = (hash: string) => `EMAILTOKEN#${hash}`;
/** used and expired links are kept a week (to answer "expired" or "used" clearly), then TTL removes them */
const TOKEN_KEEP_SECONDS = 7 * 24 * 60 * 60;

type UserItem = UserRecord & { pk: string; kind: 'USER' };

function toRecord(item: Record<string, unknown>): UserRecord {
  const {
    pk: _pk,
    kind: _kind,
    expiresAt: _exp,
    ...rest
  } = item as unknown as UserItem & { expiresAt?: number };
  return rest;
}

/** The table's TTL (epoch seconds) of an unconfirmed registration: DynamoDB removes it some time after. */
const ttlOf = (u: Pick<UserRecord, 'unconfirmedUntil'>) =>
  u.unconfirmedUntil ? { expiresAt: Math.ceil(Date.parse(u.unconfirmedUntil) / 1000) } : {};

/** A user as its item (company-identity-store.ts writes users in its own transactions). */
export const userItem = (u: UserRecord) => ({ ...u, pk: userPk(u.id), kind: 'USER', ...ttlOf(u) });
/**
 * The claim of an address: one per address ever used, so a deleted account's address stays blocked. The
 * claim of an unconfirmed registration expires with it (TTL), so its address is free again.
 */
export const emailClaim = (
  email: string,
  userId: string,
  claimedAt: string,
  unconfirmed: Pick<UserRecord, 'unconfirmedUntil'> = {},
) => ({
  pk: emailPk(email),
  kind: 'EMAIL',
  userId,
  claimedAt,
  ...ttlOf(unconfirmed),
});
/** Deletes the claim of `email` while `userId` holds it. */
const releaseClaim = (table: string, email: string, userId: string): TransactItem => ({
  Delete: {
    TableName: table,
    Key: { pk: emailPk(email) },
    ConditionExpression: 'userId = :id',
    ExpressionAttributeValues: { ':id': userId },
  },
});

/** Marks a mailed link used, only if it was not used before (single use). */
const linkUsed = (table: string, link: { tokenHash: string; at: string }): TransactItem => ({
  Update: {
    TableName: table,
    Key: { pk: tokenPk(link.tokenHash) },
    UpdateExpression: 'SET usedAt = :at',
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt)',
    ExpressionAttributeValues: { ':at': link.at },
  },
});

/** True when `e` cancelled a transaction on one of its items from `from` on (the link's, last of the state). */
const cancelledFrom = (e: unknown, from: number) =>
  e instanceof TransactionCanceledException &&
  (e.CancellationReasons ?? []).slice(from).some((r) => r.Code === 'ConditionalCheckFailed');

export class DynamoUserRepository implements UserRepository {
  /** `audit`: the table the events of its writes are chained into, in the same transaction (decision 283) */
  constructor(
    private readonly table: string,
    private readonly audit: AuditTable = NO_AUDIT_TABLE,
  ) {}

  /** A user write: its state items, the link it uses (last), and its events, in one transaction. */
  private write(items: TransactItem[], commit: UserCommit): Promise<void> {
    const link = commit.usedLink ? [linkUsed(this.table, commit.usedLink)] : [];
    return writeRecorded(this.audit, [...items, ...link], commit.events);
  }

  record(events: readonly AuditEvent[]): Promise<void> {
    return writeRecorded(this.audit, [], events);
  }

  async create(user: UserRecord, replacing?: UserRecord, commit: UserCommit = {}): Promise<boolean> {
    const claim = emailClaim(user.email, user.id, user.createdAt, user);
    const items: TransactItem[] = replacing
      ? [
          // the claim of an expired registration that TTL has not removed yet: taken over, only while it
          // is still that registration's (and it is still unconfirmed: confirming removes the TTL)
          {
            Put: {
              TableName: this.table,
              Item: claim,
              ConditionExpression:
                'userId = :old AND attribute_exists(expiresAt) AND attribute_not_exists(deletedAt)',
              ExpressionAttributeValues: { ':old': replacing.id },
            },
          },
          putNew(this.table, userItem(user)),
          {
            Delete: {
              TableName: this.table,
              Key: { pk: userPk(replacing.id) },
              ConditionExpression: '#v = :v',
              ExpressionAttributeNames: { '#v': 'version' },
              ExpressionAttributeValues: { ':v': replacing.version },
            },
          },
        ]
      : [putNew(this.table, claim), putNew(this.table, userItem(user))];
    try {
      await this.write(items, commit);
      return true;
    } catch (e) {
      if (cancelledBy(e, 0) || (replacing && cancelledBy(e, 2))) return false;
      throw e;
    }
  }

  async confirmRegistration(
    next: UserRecord,
    expectedVersion: number,
    commit: UserCommit = {},
  ): Promise<'ok' | 'conflict'> {
    const { unconfirmedUntil: _gone, ...confirmed } = next;
    try {
      await this.write(
        [
          putAtVersion(this.table, userItem(confirmed), expectedVersion),
          {
            Update: {
              TableName: this.table,
              Key: { pk: emailPk(next.email) },
              UpdateExpression: 'REMOVE expiresAt',
              ConditionExpression: 'userId = :id',
              ExpressionAttributeValues: { ':id': next.id },
            },
          },
        ],
        commit,
      );
      return 'ok';
    } catch (e) {
      if (cancelledFrom(e, 0)) return 'conflict';
      throw e;
    }
  }

  async getById(id: string): Promise<UserRecord | null> {
    const item = await getItem(this.table, { pk: userPk(id) });
    return item ? toRecord(item) : null;
  }

  async getByEmail(email: string): Promise<UserRecord | null> {
    const claim = await getItem(this.table, { pk: emailPk(email) });
    if (!claim || claim.deletedAt || typeof claim.userId !== 'string') return null;
    return this.getById(claim.userId);
  }

  async putEmailToken(token: EmailToken): Promise<void> {
    await createItem(this.table, {
      ...token,
      pk: tokenPk(token.tokenHash),
      kind: 'EMAIL_TOKEN',
      expiresAt: Math.floor(Date.parse(token.validUntil) / 1000) + TOKEN_KEEP_SECONDS,
    });
  }

  async getEmailToken(tokenHash: string): Promise<EmailToken | null> {
    const item = await getItem(this.table, { pk: tokenPk(tokenHash) });
    if (!item) return null;
    const { pk: _pk, kind: _kind, expiresAt: _exp, ...rest } = item;
    return rest as unknown as EmailToken;
  }

  markEmailTokenUsed(tokenHash: string, at: string): Promise<boolean> {
    return updateIf({
      TableName: this.table,
      Key: { pk: tokenPk(tokenHash) },
      UpdateExpression: 'SET usedAt = :at',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt)',
      ExpressionAttributeValues: { ':at': at },
    });
  }

  async list(): Promise<UserRecord[]> {
    return (await queryKind(this.table, 'USER')).map(toRecord);
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
    commit: UserCommit = {},
  ): Promise<'ok' | 'conflict' | 'emailTaken'> {
    const putUser = putAtVersion(this.table, userItem(next), expectedVersion);
    const emailChanged = next.email.toLowerCase() !== previousEmail.toLowerCase();
    const items = emailChanged
      ? [
          putUser,
          putNew(this.table, emailClaim(next.email, next.id, next.updatedAt)),
          // The old address is released: only deleted accounts keep their email blocked.
          releaseClaim(this.table, previousEmail, next.id),
        ]
      : [putUser];
    try {
      await this.write(items, commit);
      return 'ok';
    } catch (e) {
      if (emailChanged && cancelledBy(e, 1)) return 'emailTaken';
      if (cancelledFrom(e, 0)) return 'conflict';
      throw e;
    }
  }

  async delete(user: UserRecord, at: string, commit: UserCommit = {}): Promise<boolean> {
    // its passkeys go with it (user-delete.ts); a passkey added or removed meanwhile: read it again
    let current: UserRecord | null = user;
    for (let attempt = 0; current && attempt < 5; attempt++) {
      try {
        const keys = { user: userPk(user.id), email: emailPk(user.email) };
        await this.write(accountDeletion(this.table, keys, current, at), commit);
        return true;
      } catch (e) {
        if (!cancelledBy(e, 0)) throw e;
        current = await this.getById(user.id);
      }
    }
    if (current) throw new Error(`user ${user.id}: its passkeys kept changing while it was deleted`);
    return false;
  }

  async discard(user: UserRecord, commit: UserCommit = {}): Promise<boolean> {
    try {
      await this.write(
        [
          {
            Delete: {
              TableName: this.table,
              Key: { pk: userPk(user.id) },
              ConditionExpression: '#v = :v',
              ExpressionAttributeNames: { '#v': 'version' },
              ExpressionAttributeValues: { ':v': user.version },
            },
          },
          releaseClaim(this.table, user.email, user.id),
        ],
        commit,
      );
      return true;
    } catch (e) {
      if (cancelledFrom(e, 0)) return false;
      throw e;
    }
  }

  async updateAll(
    changes: { next: UserRecord; expectedVersion: number }[],
    commit: UserCommit = {},
  ): Promise<boolean> {
    try {
      await this.write(
        changes.map(({ next, expectedVersion }) => putAtVersion(this.table, userItem(next), expectedVersion)),
        commit,
      );
      return true;
    } catch (e) {
      if (cancelledFrom(e, 0)) return false;
      throw e;
    }
  }

  async getThrottle(key: string): Promise<ThrottleState> {
    const item = await getItem(this.table, { pk: throttlePk(key) });
    const nowEpoch = Math.floor(Date.now() / 1000);
    if (!item || (typeof item.expiresAt === 'number' && item.expiresAt < nowEpoch)) {
      return { failures: 0, lastFailureAt: null };
    }
    return {
      failures: Number(item.failures ?? 0),
      lastFailureAt: (item.lastFailureAt as string) ?? null,
    };
  }

  /** An update of the throttle item of `key`. */
  private throttleUpdate(
    key: string,
    input: Omit<UpdateCommandInput, 'TableName' | 'Key'>,
  ): UpdateCommandInput {
    return { TableName: this.table, Key: { pk: throttlePk(key) }, ...input };
  }

  async recordFailure(
    key: string,
    at: string,
    expiresAtEpoch: number,
  ): Promise<{ failures: number; firstInWindow: boolean }> {
    const values = { ':one': 1, ':at': at, ':exp': expiresAtEpoch, ':k': 'THROTTLE' };
    try {
      const r = await dynamo().send(
        new UpdateCommand(
          this.throttleUpdate(key, {
            UpdateExpression: 'ADD failures :one SET lastFailureAt = :at, expiresAt = :exp, kind = :k',
            // counts on only while the earlier failures are remembered (the same test as getThrottle's)
            ConditionExpression: 'attribute_not_exists(expiresAt) OR expiresAt >= :now',
            ExpressionAttributeValues: { ...values, ':now': Math.floor(Date.parse(at) / 1000) },
            ReturnValues: 'ALL_OLD',
          }),
        ),
      );
      const before = r.Attributes;
      return { failures: Number(before?.failures ?? 0) + 1, firstInWindow: before === undefined };
    } catch (e) {
      if (!conditionFailed(e)) throw e;
      // An expired counter that TTL has not swept yet (it deletes lazily): this failure starts a new count,
      // or one typo after the quiet period would lock the owner out again at once.
      await dynamo().send(
        new UpdateCommand(
          this.throttleUpdate(key, {
            UpdateExpression: 'SET failures = :one, lastFailureAt = :at, expiresAt = :exp, kind = :k',
            ExpressionAttributeValues: values,
          }),
        ),
      );
      return { failures: 1, firstInWindow: true };
    }
  }

  async forgiveFailures(key: string): Promise<void> {
    await updateIf(
      this.throttleUpdate(key, {
        UpdateExpression: 'SET failures = :zero',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    );
  }

  async takeQuota(key: string, limit: number, windowSeconds: number, at: Date): Promise<QuotaResult> {
    const now = Math.floor(at.getTime() / 1000);
    if (limit < 1) return { ok: false, retryAfterSeconds: windowSeconds };
    // Two rounds: a request that loses the race to open the window uses the window the winner opened.
    for (let round = 0; round < 2; round++) {
      // within an open window that still has room: one more use
      if (
        await updateIf(
          this.throttleUpdate(key, {
            UpdateExpression: 'ADD uses :one',
            ConditionExpression: 'expiresAt > :now AND uses < :limit',
            ExpressionAttributeValues: { ':one': 1, ':now': now, ':limit': limit },
          }),
        )
      )
        return { ok: true };
      // no window, or an ended one (TTL deletes lazily): this use opens a new window
      if (
        await updateIf(
          this.throttleUpdate(key, {
            UpdateExpression: 'SET uses = :one, expiresAt = :end, kind = :k',
            ConditionExpression: 'attribute_not_exists(expiresAt) OR expiresAt <= :now',
            ExpressionAttributeValues: {
              ':one': 1,
              ':end': now + windowSeconds,
              ':now': now,
              ':k': 'THROTTLE',
            },
          }),
        )
      )
        return { ok: true };
    }
    // an open window with no room left
    const item = await getItem(this.table, { pk: throttlePk(key) });
    const end = Number(item?.expiresAt ?? now + 1);
    return { ok: false, retryAfterSeconds: Math.max(1, end - now) };
  }

  async returnQuota(key: string): Promise<void> {
    await updateIf(
      this.throttleUpdate(key, {
        UpdateExpression: 'ADD uses :minus',
        ConditionExpression: 'uses > :zero',
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      }),
    );
  }

  async clearThrottle(key: string): Promise<void> {
    await dynamo().send(new DeleteCommand({ TableName: this.table, Key: { pk: throttlePk(key) } }));
  }
}
