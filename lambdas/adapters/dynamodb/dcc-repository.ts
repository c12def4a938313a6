import { BatchWriteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Dcc } from '../../../shared/api/contracts/dcc';
import type { DccRepository } from '../../ports/dcc-repository';
import { dynamo } from '../aws-clients';
import { queryAll } from './query-all';

const key = (id: string) => ({ pk: `DCC#${id}` });

function fromItem(i: Record<string, unknown>): Dcc {
  const { pk: _pk, kind: _k, ...rest } = i;
  return rest as unknown as Dcc;
}

export class DynamoDccRepository implements DccRepository {
  constructor(private readonly table: string) {}

  async create(dcc: Dcc): Promise<void> {
    await dynamo().send(
      new PutCommand({
        TableName: this.table,
        Item: { ...dcc, ...key(dcc.id), kind: 'DCC' },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
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

  async delete(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += 25) {
      await dynamo().send(
        new BatchWriteCommand({
          RequestItems: {
            [this.table]: ids.slice(i, i + 25).map((id) => ({ DeleteRequest: { Key: key(id) } })),
          },
        }),
      );
    }
  }
}
