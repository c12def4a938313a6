import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Dcc } from '../../../shared/api/contracts/dcc';
import type { Recorded } from '../../ports/audit-log';
import type { DccRepository } from '../../ports/dcc-repository';
import { dynamo } from '../aws-clients';
import { type AuditTable, NO_AUDIT_TABLE, writeRecorded } from './audit-commit';
import { queryAll } from './query-all';
import { cancelledBy, deleteExisting, putNew } from './transact';

const key = (id: string) => ({ pk: `DCC#${id}` });

function fromItem(i: Record<string, unknown>): Dcc {
  const { pk: _pk, kind: _k, ...rest } = i;
  return rest as unknown as Dcc;
}

/** DCCs (one item each); a creation or deletion commits with its audit events (decision 283). */
export class DynamoDccRepository implements DccRepository {
  constructor(
    private readonly table: string,
    private readonly audit: AuditTable = NO_AUDIT_TABLE,
  ) {}

  async create(dcc: Dcc, commit: Recorded = {}): Promise<void> {
    await writeRecorded(
      this.audit,
      [putNew(this.table, { ...dcc, ...key(dcc.id), kind: 'DCC' })],
      commit.events,
    );
  }

  async get(id: string): Promise<Dcc | null> {
    const r = await dynamo().send(
      new GetCommand({ TableName: this.table, Key: key(id), ConsistentRead: true }),
    );
    return r.Item ? fromItem(r.Item) : null;
  }

  async list(): Promise<Dcc[]> {
    // every DCC, newest first: the byKind index (kind DCC, sorted by createdAt)
    const byKind = { TableName: this.table, IndexName: 'byKind', KeyConditionExpression: 'kind = :k' };
    return (
      await queryAll({ ...byKind, ExpressionAttributeValues: { ':k': 'DCC' }, ScanIndexForward: false })
    ).map(fromItem);
  }

  async delete(id: string, commit: Recorded = {}): Promise<'deleted' | 'missing'> {
    try {
      await writeRecorded(this.audit, [deleteExisting(this.table, key(id))], commit.events);
      return 'deleted';
    } catch (e) {
      if (cancelledBy(e, 0)) return 'missing';
      throw e;
    }
  }
}
