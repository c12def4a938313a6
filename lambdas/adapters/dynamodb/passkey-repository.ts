import type { Recorded } from '../../ports/audit-log';
import type { Ceremony, PasskeyRecord, PasskeyRepository } from '../../ports/passkey-repository';
import type { UserRecord } from '../../ports/user-repository';
import { type AuditTable, NO_AUDIT_TABLE, writeRecorded } from './audit-commit';
import {
  cancelledBy,
  createItem,
  deleteOwned,
  getItem,
  putAtVersion,
  putNew,
  type TransactItem,
  takeItem,
  updateIf,
} from './transact';
import { passkeyPk } from './user-delete';
import { userItem } from './user-repository';

/**
 * Passkeys and WebAuthn ceremonies in the users table (decision 322): `PASSKEY#<credential id>` (one item
 * per credential, so a credential belongs to one account only; the user record lists its ids) and
 * `CEREMONY#<sha256 of the ceremony id>` (expiring: the table's TTL removes what was never used, and a
 * take deletes it, so a challenge answers once).
 */
const ceremonyPk = (hash: string) => `CEREMONY#${hash}`;

function toPasskey(item: Record<string, unknown>): PasskeyRecord {
  const { pk: _pk, kind: _kind, ...rest } = item;
  return rest as unknown as PasskeyRecord;
}

export class DynamoPasskeyRepository implements PasskeyRepository {
  /** `audit`: where the events of its writes are chained, in the same transaction (decision 283) */
  constructor(
    private readonly table: string,
    private readonly audit: AuditTable = NO_AUDIT_TABLE,
  ) {}

  async putCeremony(c: Ceremony): Promise<void> {
    const expiresAt = Math.ceil(Date.parse(c.validUntil) / 1000);
    await createItem(this.table, { ...c, pk: ceremonyPk(c.idHash), kind: 'CEREMONY', expiresAt });
  }

  async takeCeremony(idHash: string): Promise<Ceremony | null> {
    const item = await takeItem(this.table, { pk: ceremonyPk(idHash) });
    if (!item) return null;
    const { pk: _pk, kind: _kind, expiresAt: _e, ...c } = item;
    return c as unknown as Ceremony;
  }

  async get(id: string): Promise<PasskeyRecord | null> {
    const item = await getItem(this.table, { pk: passkeyPk(id) });
    return item ? toPasskey(item) : null;
  }

  async getAll(ids: readonly string[]): Promise<PasskeyRecord[]> {
    // an account holds at most MAX_PASSKEYS: consistent reads by key, no index
    const found = await Promise.all(ids.map((id) => this.get(id)));
    return found.filter((p): p is PasskeyRecord => p !== null);
  }

  async add(passkey: PasskeyRecord, next: UserRecord, expectedVersion: number, commit: Recorded = {}) {
    try {
      await writeRecorded(
        this.audit,
        [
          putNew(this.table, { ...passkey, pk: passkeyPk(passkey.id), kind: 'PASSKEY' }),
          putAtVersion(this.table, userItem(next), expectedVersion),
        ],
        commit.events,
      );
      return 'ok' as const;
    } catch (e) {
      if (cancelledBy(e, 0)) return 'taken' as const;
      if (cancelledBy(e, 1)) return 'conflict' as const;
      throw e;
    }
  }

  async remove(
    passkey: Pick<PasskeyRecord, 'id' | 'userId'>,
    next: UserRecord,
    expectedVersion: number,
    commit: Recorded = {},
  ) {
    try {
      await writeRecorded(
        this.audit,
        [
          deleteOwned(this.table, { pk: passkeyPk(passkey.id) }, passkey.userId),
          putAtVersion(this.table, userItem(next), expectedVersion),
        ],
        commit.events,
      );
      return true;
    } catch (e) {
      if (cancelledBy(e, 0) || cancelledBy(e, 1)) return false;
      throw e;
    }
  }

  recordUse(id: string, counter: number, newCounter: number, at: string): Promise<boolean> {
    return updateIf({
      TableName: this.table,
      Key: { pk: passkeyPk(id) },
      UpdateExpression: 'SET #c = :n, lastUsedAt = :at',
      ConditionExpression: 'attribute_exists(pk) AND #c = :c',
      ExpressionAttributeNames: { '#c': 'counter' },
      ExpressionAttributeValues: { ':n': newCounter, ':c': counter, ':at': at },
    });
  }

  async update(
    id: string,
    userId: string,
    change: { name?: string; removalProposal?: PasskeyRecord['removalProposal'] | null },
    commit: Recorded = {},
  ): Promise<boolean> {
    const sets: string[] = [];
    const values: Record<string, unknown> = { ':u': userId };
    let remove = '';
    if (change.name !== undefined) {
      sets.push('#n = :n');
      values[':n'] = change.name;
    }
    if (change.removalProposal === null) remove = ' REMOVE removalProposal';
    else if (change.removalProposal !== undefined) {
      sets.push('removalProposal = :r');
      values[':r'] = change.removalProposal;
    }
    const update: TransactItem = {
      Update: {
        TableName: this.table,
        Key: { pk: passkeyPk(id) },
        UpdateExpression: `${sets.length ? `SET ${sets.join(', ')}` : ''}${remove}`.trim(),
        ConditionExpression: 'userId = :u',
        ...(change.name !== undefined ? { ExpressionAttributeNames: { '#n': 'name' } } : {}),
        ExpressionAttributeValues: values,
      },
    };
    try {
      await writeRecorded(this.audit, [update], commit.events);
      return true;
    } catch (e) {
      if (cancelledBy(e, 0)) return false;
      throw e;
    }
  }
}
