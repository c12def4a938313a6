import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { ResourceType, Stage } from '../../../shared/api/contracts/resources';
import { nameClaimKey, typeStageKey } from '../../../shared/domain/resource-rules';
import type {
  PendingUpload,
  ResourceRecord,
  ResourceReference,
  ResourceReferences,
  ResourceRepository,
} from '../../ports/resource-repository';
import { dynamo } from '../aws-clients';
import { queryAll } from './query-all';

const resPk = (id: string) => `RES#${id}`;
const uploadPk = (id: string) => `UPLOAD#${id}`;

/** Attributes that exist for the table's keys and indexes, not for callers. */
const STORAGE_ONLY = ['pk', 'kind', 'typeStage', 'nameKey', 'packageRefs', 'expiresAtEpoch'] as const;

function strip<T>(item: Record<string, unknown>): T {
  const rest: Record<string, unknown> = { ...item };
  for (const k of STORAGE_ONLY) delete rest[k];
  return rest as T;
}

function cancelledBy(e: unknown, index: number): boolean {
  return (
    e instanceof TransactionCanceledException &&
    e.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed'
  );
}

/** Newest first; items of one second (uploadTime's resolution) by their full creation time. */
function newestFirst(a: ResourceRecord, b: ResourceRecord): number {
  return b.createdAt.localeCompare(a.createdAt);
}

/**
 * Resources in one table: `RES#<id>` records, `NAME#<name>` claims (one per name, taken in the same
 * transaction as the record, so two uploads of one name cannot both win) and `UPLOAD#<id>` pending
 * presigned uploads. Claims and pending uploads have no uploadTime, so the indexes never hold them.
 */
export class DynamoResourceRepository implements ResourceRepository {
  constructor(private readonly table: string) {}

  async getById(id: string): Promise<ResourceRecord | null> {
    const r = await dynamo().send(
      new GetCommand({ TableName: this.table, Key: { pk: resPk(id) }, ConsistentRead: true }),
    );
    return r.Item && r.Item.kind === 'RESOURCE' ? strip<ResourceRecord>(r.Item) : null;
  }

  async isNameTaken(name: string): Promise<boolean> {
    const r = await dynamo().send(
      new GetCommand({ TableName: this.table, Key: { pk: nameClaimKey(name) }, ConsistentRead: true }),
    );
    return Boolean(r.Item);
  }

  async create(record: ResourceRecord, consumeUploadId?: string): Promise<'ok' | 'nameTaken' | 'uploadGone'> {
    const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
      {
        Put: {
          TableName: this.table,
          Item: {
            pk: nameClaimKey(record.name),
            kind: 'NAME',
            resourceId: record.id,
            name: record.name,
            claimedAt: record.createdAt,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: this.table,
          Item: {
            ...record,
            pk: resPk(record.id),
            kind: 'RESOURCE',
            typeStage: typeStageKey(record.resourceType, record.resourceStage),
            nameKey: nameClaimKey(record.name),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ];
    if (consumeUploadId) {
      items.push({
        Delete: {
          TableName: this.table,
          Key: { pk: uploadPk(consumeUploadId) },
          ConditionExpression: 'attribute_exists(pk)',
        },
      });
    }
    try {
      await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
      return 'ok';
    } catch (e) {
      if (cancelledBy(e, 0)) return 'nameTaken';
      if (cancelledBy(e, 2)) return 'uploadGone';
      throw e;
    }
  }

  async listByTypeStage(type: ResourceType, stage: Stage): Promise<ResourceRecord[]> {
    const items = await queryAll({
      TableName: this.table,
      IndexName: 'byTypeStage',
      KeyConditionExpression: 'typeStage = :ts',
      ExpressionAttributeValues: { ':ts': typeStageKey(type, stage) },
      ScanIndexForward: false,
    });
    return items.map((i) => strip<ResourceRecord>(i)).sort(newestFirst);
  }

  async listAll(): Promise<ResourceRecord[]> {
    const items = await queryAll({
      TableName: this.table,
      IndexName: 'byKind',
      KeyConditionExpression: 'kind = :k',
      ExpressionAttributeValues: { ':k': 'RESOURCE' },
      ScanIndexForward: false,
    });
    return items.map((i) => strip<ResourceRecord>(i)).sort(newestFirst);
  }

  async delete(record: ResourceRecord): Promise<'ok' | 'referenced' | 'missing'> {
    try {
      await dynamo().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: this.table,
                Key: { pk: resPk(record.id) },
                // packageRefs is counted up by package creation (when it does so): a package made
                // between our reference check and this write makes the deletion fail instead of dangle
                ConditionExpression:
                  'attribute_exists(pk) AND (attribute_not_exists(packageRefs) OR packageRefs <= :zero)',
                ExpressionAttributeValues: { ':zero': 0 },
              },
            },
            {
              Delete: {
                TableName: this.table,
                Key: { pk: nameClaimKey(record.name) },
                ConditionExpression: 'attribute_not_exists(pk) OR resourceId = :id',
                ExpressionAttributeValues: { ':id': record.id },
              },
            },
          ],
        }),
      );
      return 'ok';
    } catch (e) {
      if (cancelledBy(e, 0)) return (await this.getById(record.id)) ? 'referenced' : 'missing';
      throw e;
    }
  }

  async putPendingUpload(upload: PendingUpload): Promise<void> {
    await dynamo().send(
      new PutCommand({
        TableName: this.table,
        // expiresAtEpoch lets a TTL on the table sweep abandoned uploads once one is configured
        Item: {
          ...upload,
          pk: uploadPk(upload.uploadId),
          kind: 'UPLOAD',
          expiresAtEpoch: Math.ceil(Date.parse(upload.expiresAt) / 1000),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getPendingUpload(uploadId: string): Promise<PendingUpload | null> {
    const r = await dynamo().send(
      new GetCommand({ TableName: this.table, Key: { pk: uploadPk(uploadId) }, ConsistentRead: true }),
    );
    return r.Item && r.Item.kind === 'UPLOAD' ? strip<PendingUpload>(r.Item) : null;
  }

  async lockPendingUpload(
    uploadId: string,
    ownerId: string,
    at: string,
    staleBefore: string,
  ): Promise<boolean> {
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: uploadPk(uploadId) },
          UpdateExpression: 'SET confirmingAt = :at',
          ConditionExpression:
            'attribute_exists(pk) AND ownerId = :owner AND (attribute_not_exists(confirmingAt) OR confirmingAt < :stale)',
          ExpressionAttributeValues: { ':at': at, ':owner': ownerId, ':stale': staleBefore },
        }),
      );
      return true;
    } catch (e) {
      if (e instanceof ConditionalCheckFailedException) return false;
      throw e;
    }
  }

  async unlockPendingUpload(uploadId: string, lockedAt: string): Promise<void> {
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: uploadPk(uploadId) },
          UpdateExpression: 'REMOVE confirmingAt',
          ConditionExpression: 'attribute_exists(pk) AND confirmingAt = :at',
          ExpressionAttributeValues: { ':at': lockedAt },
        }),
      );
    } catch (e) {
      if (e instanceof ConditionalCheckFailedException) return;
      throw e;
    }
  }

  async deletePendingUpload(uploadId: string): Promise<void> {
    await dynamo().send(new DeleteCommand({ TableName: this.table, Key: { pk: uploadPk(uploadId) } }));
  }
}

/** Packages using a resource: Query on the packages table's byResource index (package items only). */
export class DynamoResourceReferences implements ResourceReferences {
  constructor(private readonly packagesTable: () => string) {}

  async packagesUsing(resourceId: string): Promise<ResourceReference[]> {
    const items = await queryAll({
      TableName: this.packagesTable(),
      IndexName: 'byResource',
      KeyConditionExpression: 'resourceId = :r',
      FilterExpression: 'sk = :pkg',
      ExpressionAttributeValues: { ':r': resourceId, ':pkg': 'PKG' },
    });
    return items.map((i) => ({
      packageId: String(i.id ?? String(i.pk).replace(/^PKG#/, '')),
      packageName: String(i.name ?? i.id ?? i.pk),
    }));
  }
}
