import { DeleteCommand, PutCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ProvenanceFields } from '../../../shared/api/contracts/provenance';
import type { ResourceType, Stage } from '../../../shared/api/contracts/resources';
import { nameClaimKey, typeStageKey } from '../../../shared/domain/resource-rules';
import type { Recorded } from '../../ports/audit-log';
import type {
  AttachOutcome,
  PendingUpload,
  ResourceProvenanceStore,
  ResourceRecord,
  ResourceReference,
  ResourceReferences,
  ResourceRepository,
  UploadOutcome,
  UploadRefusal,
} from '../../ports/resource-repository';
import { dynamo } from '../aws-clients';
import { type AuditTable, NO_AUDIT_TABLE, writeRecorded } from './audit-commit';
import { queryAll } from './query-all';
import { cancelledBy, createItem, getItem, putNew, queryKind, updateIf } from './transact';

const resPk = (id: string) => `RES#${id}`;
const uploadPk = (id: string) => `UPLOAD#${id}`;

/** Attributes that exist for the table's keys and indexes, not for callers. */
const STORAGE_ONLY = ['pk', 'kind', 'typeStage', 'nameKey', 'packageRefs', 'expiresAtEpoch'] as const;

function strip<T>(item: Record<string, unknown>): T {
  const rest: Record<string, unknown> = { ...item };
  for (const k of STORAGE_ONLY) delete rest[k];
  return rest as T;
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
export class DynamoResourceRepository implements ResourceRepository, ResourceProvenanceStore {
  /** `audit`: the table the events of its writes are chained into, in the same transaction (decision 283) */
  constructor(
    private readonly table: string,
    private readonly audit: AuditTable = NO_AUDIT_TABLE,
  ) {}

  async getById(id: string): Promise<ResourceRecord | null> {
    const item = await getItem(this.table, { pk: resPk(id) });
    return item && item.kind === 'RESOURCE' ? strip<ResourceRecord>(item) : null;
  }

  async isNameTaken(name: string): Promise<boolean> {
    return Boolean(await getItem(this.table, { pk: nameClaimKey(name) }));
  }

  async create(
    record: ResourceRecord,
    consumeUploadId?: string,
    commit: Recorded = {},
  ): Promise<'ok' | 'nameTaken' | 'uploadGone'> {
    const items = [
      putNew(this.table, {
        pk: nameClaimKey(record.name),
        kind: 'NAME',
        resourceId: record.id,
        name: record.name,
        claimedAt: record.createdAt,
      }),
      putNew(this.table, {
        ...record,
        pk: resPk(record.id),
        kind: 'RESOURCE',
        typeStage: typeStageKey(record.resourceType, record.resourceStage),
        nameKey: nameClaimKey(record.name),
      }),
    ];
    if (consumeUploadId) {
      // the pending item becomes the outcome the owner's poll reads (decision 173); it must still be pending
      items.push({
        Put: {
          TableName: this.table,
          Item: {
            pk: uploadPk(consumeUploadId),
            kind: 'UPLOAD_DONE',
            ownerId: record.uploadedBy.id,
            resourceId: record.id,
            expiresAtEpoch: epochOf(record.createdAt) + OUTCOME_KEPT_SECONDS,
          },
          ConditionExpression: '#kind = :upload',
          ExpressionAttributeNames: { '#kind': 'kind' },
          ExpressionAttributeValues: { ':upload': 'UPLOAD' },
        },
      });
    }
    try {
      await writeRecorded(this.audit, items, commit.events);
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
    return (await queryKind(this.table, 'RESOURCE', { ScanIndexForward: false }))
      .map((i) => strip<ResourceRecord>(i))
      .sort(newestFirst);
  }

  async delete(record: ResourceRecord, commit: Recorded = {}): Promise<'ok' | 'referenced' | 'missing'> {
    try {
      await writeRecorded(
        this.audit,
        [
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
        commit.events,
      );
      return 'ok';
    } catch (e) {
      if (cancelledBy(e, 0)) return (await this.getById(record.id)) ? 'referenced' : 'missing';
      throw e;
    }
  }

  async attachProvenance(
    id: string,
    fields: ProvenanceFields,
    commit: Recorded = {},
  ): Promise<AttachOutcome> {
    const given = (['provenance', 'sbom'] as const).filter((k) => fields[k] !== undefined);
    if (given.length === 0) return 'ok';
    const update = {
      TableName: this.table,
      Key: { pk: resPk(id) },
      UpdateExpression: `SET ${given.map((k) => `#${k} = :${k}`).join(', ')}`,
      // set once: a field already recorded is never overwritten (decision 275)
      ConditionExpression: ['#kind = :res', ...given.map((k) => `attribute_not_exists(#${k})`)].join(' AND '),
      ExpressionAttributeNames: { '#kind': 'kind', ...Object.fromEntries(given.map((k) => [`#${k}`, k])) },
      ExpressionAttributeValues: {
        ':res': 'RESOURCE',
        ...Object.fromEntries(given.map((k) => [`:${k}`, fields[k]])),
      },
    };
    try {
      await writeRecorded(this.audit, [{ Update: update }], commit.events);
      return 'ok';
    } catch (e) {
      if (!cancelledBy(e, 0)) throw e;
    }
    const now = await this.getById(id);
    if (!now) return 'missing';
    return fields.provenance && now.provenance ? 'provenanceTaken' : 'sbomTaken';
  }

  async putPendingUpload(upload: PendingUpload): Promise<void> {
    // expiresAtEpoch lets a TTL on the table sweep abandoned uploads once one is configured
    await createItem(this.table, {
      ...upload,
      pk: uploadPk(upload.uploadId),
      kind: 'UPLOAD',
      expiresAtEpoch: Math.ceil(Date.parse(upload.expiresAt) / 1000),
    });
  }

  async getPendingUpload(uploadId: string): Promise<PendingUpload | null> {
    const item = await getItem(this.table, { pk: uploadPk(uploadId) });
    return item && item.kind === 'UPLOAD' ? strip<PendingUpload>(item) : null;
  }

  lockPendingUpload(uploadId: string, ownerId: string, at: string, staleBefore: string): Promise<boolean> {
    return this.updateUploadIf(uploadId, {
      UpdateExpression: 'SET confirmingAt = :at',
      ConditionExpression:
        '#kind = :upload AND ownerId = :owner AND (attribute_not_exists(confirmingAt) OR attribute_not_exists(verifyJobId) OR attribute_exists(verifyFailure) OR confirmingAt < :stale)',
      ExpressionAttributeNames: { '#kind': 'kind' },
      ExpressionAttributeValues: { ':at': at, ':owner': ownerId, ':stale': staleBefore, ':upload': 'UPLOAD' },
    });
  }

  /** A conditional update of the pending upload `uploadId`; false when its condition failed. */
  private updateUploadIf(uploadId: string, update: Omit<UpdateCommandInput, 'TableName' | 'Key'>) {
    return updateIf({ TableName: this.table, Key: { pk: uploadPk(uploadId) }, ...update });
  }

  async unlockPendingUpload(uploadId: string, lockedAt: string): Promise<void> {
    await this.updateUploadIf(uploadId, {
      UpdateExpression: 'REMOVE confirmingAt',
      ConditionExpression: 'attribute_exists(pk) AND confirmingAt = :at',
      ExpressionAttributeValues: { ':at': lockedAt },
    });
  }

  async deletePendingUpload(uploadId: string): Promise<void> {
    await dynamo().send(new DeleteCommand({ TableName: this.table, Key: { pk: uploadPk(uploadId) } }));
  }

  startVerification: ResourceRepository['startVerification'] = (
    uploadId,
    lockedAt,
    jobId,
    by,
    keepUntil,
    etags,
  ) =>
    this.updateUploadIf(uploadId, {
      UpdateExpression: `SET verifyJobId = :job, verifyingFor = :by, verifiedBytes = :zero, expiresAtEpoch = :keep${etags ? ', completeEtags = :etags' : ''} REMOVE verifyFailure`,
      ConditionExpression: '#kind = :upload AND confirmingAt = :at',
      ExpressionAttributeNames: { '#kind': 'kind' },
      ExpressionAttributeValues: {
        ':job': jobId,
        ':by': { id: by.id, name: by.name, userRole: by.userRole },
        ':zero': 0,
        ':keep': epochOf(keepUntil),
        ':upload': 'UPLOAD',
        ':at': lockedAt,
        ...(etags ? { ':etags': [...etags] } : {}),
      },
    });

  recordVerification(uploadId: string, jobId: string, verifiedBytes: number): Promise<boolean> {
    return this.updateUploadIf(uploadId, {
      UpdateExpression: 'SET verifiedBytes = :n',
      ConditionExpression: '#kind = :upload AND verifyJobId = :job',
      ExpressionAttributeNames: { '#kind': 'kind' },
      ExpressionAttributeValues: { ':n': verifiedBytes, ':job': jobId, ':upload': 'UPLOAD' },
    });
  }

  failVerification(uploadId: string, jobId: string, reason: string): Promise<boolean> {
    return this.updateUploadIf(uploadId, {
      UpdateExpression: 'SET verifyFailure = :why REMOVE confirmingAt',
      ConditionExpression: '#kind = :upload AND verifyJobId = :job',
      ExpressionAttributeNames: { '#kind': 'kind' },
      ExpressionAttributeValues: { ':why': reason, ':job': jobId, ':upload': 'UPLOAD' },
    });
  }

  async refuseUpload(
    uploadId: string,
    ownerId: string,
    refusal: UploadRefusal,
    keepUntil: string,
  ): Promise<void> {
    await dynamo().send(
      new PutCommand({
        TableName: this.table,
        Item: {
          pk: uploadPk(uploadId),
          kind: 'UPLOAD_REFUSED',
          ownerId,
          refusal: { statusCode: refusal.statusCode, errorMessage: refusal.errorMessage },
          expiresAtEpoch: epochOf(keepUntil),
        },
      }),
    );
  }

  async getUploadOutcome(uploadId: string): Promise<UploadOutcome | null> {
    const item = await getItem(this.table, { pk: uploadPk(uploadId) });
    if (item?.kind === 'UPLOAD_DONE')
      return { ownerId: String(item.ownerId), resourceId: String(item.resourceId) };
    if (item?.kind === 'UPLOAD_REFUSED')
      return { ownerId: String(item.ownerId), refusal: item.refusal as UploadRefusal };
    return null;
  }
}

/** How long the outcome of an upload is kept for its owner's poll (the table's TTL sweeps it after). */
const OUTCOME_KEPT_SECONDS = 7 * 24 * 3600;
const epochOf = (iso: string): number => Math.ceil(Date.parse(iso) / 1000);

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
