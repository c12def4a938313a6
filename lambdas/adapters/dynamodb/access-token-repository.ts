import type { AccessTokenRecord, AccessTokenRepository } from '../../ports/access-token-repository';
import type { Recorded } from '../../ports/audit-log';
import { type AuditTable, NO_AUDIT_TABLE, writeRecorded } from './audit-commit';
import { cancelledBy, getItem, putNew, queryKind, updateIf } from './transact';

/**
 * Access tokens in the users table: one item `ACCESSTOKEN#<id>` per token (kind ACCESS_TOKEN),
 * found by its id in one GetItem. The table's TTL removes a token a week after it expired.
 */
const pk = (id: string) => `ACCESSTOKEN#${id}`;
const KIND = 'ACCESS_TOKEN';
const KEEP_SECONDS = 7 * 24 * 60 * 60;

function toRecord(item: Record<string, unknown>): AccessTokenRecord {
  const { pk: _pk, kind: _kind, ttl: _ttl, expiresAt: _epoch, validUntil, ...rest } = item;
  return { ...(rest as Omit<AccessTokenRecord, 'expiresAt'>), expiresAt: String(validUntil) };
}

export class DynamoAccessTokenRepository implements AccessTokenRepository {
  /** `audit`: the table the events of its writes are chained into, in the same transaction (decision 283) */
  constructor(
    private readonly table: string,
    private readonly audit: AuditTable = NO_AUDIT_TABLE,
  ) {}

  async create(token: AccessTokenRecord, commit: Recorded = {}): Promise<void> {
    const { expiresAt, ...rest } = token;
    const item = {
      ...rest,
      pk: pk(token.id),
      kind: KIND,
      // the table's TTL attribute is epoch seconds named expiresAt; the token's own expiry is validUntil
      validUntil: expiresAt,
      expiresAt: Math.ceil(Date.parse(expiresAt) / 1000) + KEEP_SECONDS,
    };
    await writeRecorded(this.audit, [putNew(this.table, item)], commit.events);
  }

  async get(id: string): Promise<AccessTokenRecord | null> {
    const item = await getItem(this.table, { pk: pk(id) });
    return item && item.kind === KIND ? toRecord(item) : null;
  }

  async listByUser(userId: string): Promise<AccessTokenRecord[]> {
    const items = await queryKind(this.table, KIND, {
      FilterExpression: 'userId = :u',
      ExpressionAttributeValues: { ':u': userId },
    });
    return items.map(toRecord);
  }

  async listAll(): Promise<AccessTokenRecord[]> {
    return (await queryKind(this.table, KIND)).map(toRecord);
  }

  async revoke(id: string, at: string, by: string, commit: Recorded = {}): Promise<boolean> {
    const update = {
      TableName: this.table,
      Key: { pk: pk(id) },
      UpdateExpression: 'SET revokedAt = :at, revokedBy = :by',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
      ExpressionAttributeValues: { ':at': at, ':by': by },
    };
    try {
      await writeRecorded(this.audit, [{ Update: update }], commit.events);
      return true;
    } catch (e) {
      if (cancelledBy(e, 0)) return false;
      throw e;
    }
  }

  async touch(id: string, at: string): Promise<void> {
    await updateIf({
      TableName: this.table,
      Key: { pk: pk(id) },
      UpdateExpression: 'SET lastUsedAt = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': at },
    });
  }
}
