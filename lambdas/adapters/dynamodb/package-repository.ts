import { BatchGetCommand, type BatchGetCommandOutput, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { PackageStatus } from '../../../shared/api/contracts/packages';
import type { Stage } from '../../../shared/api/contracts/resources';
import { APPROVAL_POLICY, type ApprovalPolicy } from '../../../shared/domain/approval-policy';
import { approvedForKey, isApproved } from '../../../shared/domain/package-changes';
import type { PackageTombstone } from '../../../shared/domain/package-deletion';
import type { Recorded } from '../../ports/audit-log';
import type {
  CompactPackage,
  PackageCommit,
  PackageDeletion,
  PackageListName,
  PackageRecord,
  PackageRepository,
  Page,
  PageRequest,
  TaskKind,
} from '../../ports/package-repository';
import { dynamo } from '../aws-clients';
import { type AuditTable, commitRecorded, NO_AUDIT_TABLE, writeRecorded } from './audit-commit';
import { commitItems } from './package-commit';
import { decodeCursor, encodeCursor } from './package-cursor';
import { deletePackage } from './package-delete';
import {
  DRAFT_QUEUE,
  fromItem,
  fromTombstoneItem,
  nameKey,
  pkgKey,
  toItem,
  tombstoneKey,
} from './package-items';
import { bumpListEpoch, packageListIndex } from './package-list-index';
import type { PackageTableContext } from './package-table-context';
import { failedAt, type PackageTransactItem, putIfAbsent, refusedByCondition } from './package-transact';
import { decidePackage } from './package-votes';
import { queryAll } from './query-all';
import { updateIf } from './transact';

export class DynamoPackageRepository implements PackageRepository, PackageTableContext {
  readonly outboxTable: () => string;
  readonly audit: AuditTable;
  readonly policy: ApprovalPolicy;

  /**
   * `resourcesTable` (read lazily) holds the resource items whose `packageRefs` count guards deletion;
   * `outboxTable` (read lazily, only by transitions that mail) the workflow mails (decision 095); `audit`
   * the table the events of its writes are chained into (decision 283); `policy` decides who may vote
   * (shared/domain/approval-policy.ts; tests may pass another)
   */
  constructor(
    readonly table: string,
    readonly resourcesTable: () => string,
    opts: { outboxTable?: () => string; audit?: AuditTable; policy?: ApprovalPolicy } = {},
  ) {
    this.outboxTable =
      opts.outboxTable ??
      (() => {
        throw new Error('This repository has no outbox table');
      });
    this.audit = opts.audit ?? NO_AUDIT_TABLE;
    this.policy = opts.policy ?? APPROVAL_POLICY;
  }

  async create(pkg: PackageRecord, commit: Recorded = {}): Promise<'ok' | 'nameTaken' | 'resourceGone'> {
    try {
      await writeRecorded(
        this.audit,
        [
          putIfAbsent(this.table, { ...nameKey(pkg.name), kind: 'NAME', packageId: pkg.id }),
          putIfAbsent(this.table, toItem(pkg)),
          // counts the reference on the resource in the same transaction, so a resource deleted at this
          // very moment either fails this creation or sees the reference and refuses its deletion
          {
            Update: {
              TableName: this.resourcesTable(),
              Key: { pk: `RES#${pkg.resourceId}` },
              UpdateExpression: 'ADD packageRefs :one',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
        ],
        commit.events,
      );
      return 'ok';
    } catch (e) {
      if (failedAt(e, 0)) return 'nameTaken';
      if (failedAt(e, 2)) return 'resourceGone';
      throw e;
    }
  }

  /** The package's item, written only over the version and status the caller read (optimistic lock). */
  private putExpected(
    next: PackageRecord,
    expected: { version: number; status: PackageStatus },
  ): PackageTransactItem {
    return {
      Put: {
        TableName: this.table,
        Item: toItem(next),
        ConditionExpression: '#v = :v AND #s = :s',
        ExpressionAttributeNames: { '#v': 'version', '#s': 'status' },
        ExpressionAttributeValues: { ':v': expected.version, ':s': expected.status },
      },
    };
  }

  async renameDraft(
    next: PackageRecord,
    expected: { version: number; status: PackageStatus },
    oldName: string,
    commit: Recorded = {},
  ): Promise<'ok' | 'nameTaken' | 'moved'> {
    const sameClaim = next.name.toLowerCase() === oldName.toLowerCase();
    const items: PackageTransactItem[] = [this.putExpected(next, expected)];
    if (!sameClaim)
      items.push(putIfAbsent(this.table, { ...nameKey(next.name), kind: 'NAME', packageId: next.id }), {
        Delete: {
          TableName: this.table,
          Key: nameKey(oldName),
          ConditionExpression: 'packageId = :id',
          ExpressionAttributeValues: { ':id': next.id },
        },
      });
    try {
      await writeRecorded(this.audit, items, commit.events);
    } catch (e) {
      if (failedAt(e, 1)) return 'nameTaken';
      if (refusedByCondition(e)) return 'moved';
      throw e;
    }
    // the compact list index holds name, note and type as never changing (decision 210): a step-1 edit of a
    // draft moves the epoch so every list rebuilds it (rare: only Back to step 1 and Continue)
    await bumpListEpoch(this.table).catch(() => undefined);
    return 'ok';
  }

  async get(id: string): Promise<PackageRecord | null> {
    const r = await dynamo().send(
      new GetCommand({ TableName: this.table, Key: pkgKey(id), ConsistentRead: true }),
    );
    return r.Item ? fromItem(r.Item) : null;
  }

  async getMany(ids: string[]): Promise<PackageRecord[]> {
    const out: PackageRecord[] = [];
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 100) {
      let keys: Record<string, unknown>[] | undefined = unique.slice(i, i + 100).map(pkgKey);
      while (keys && keys.length > 0) {
        const r: BatchGetCommandOutput = await dynamo().send(
          new BatchGetCommand({ RequestItems: { [this.table]: { Keys: keys } } }),
        );
        out.push(...(r.Responses?.[this.table] ?? []).map(fromItem));
        keys = r.UnprocessedKeys?.[this.table]?.Keys;
      }
    }
    return out;
  }

  /** A Query of one index key, newest first. */
  private indexQuery(index: string, key: string, value: string) {
    return {
      TableName: this.table,
      IndexName: index,
      KeyConditionExpression: '#k = :v',
      ExpressionAttributeNames: { '#k': key },
      ExpressionAttributeValues: { ':v': value },
      ScanIndexForward: false,
    };
  }

  private async byIndex(index: string, key: string, value: string): Promise<PackageRecord[]> {
    const items = await queryAll(this.indexQuery(index, key, value));
    return items.filter((i) => i.kind === 'PACKAGE').map(fromItem);
  }

  /**
   * One page of an index, newest first. The cursor is the Query's LastEvaluatedKey as base64url JSON; one
   * that does not decode to exactly the keys of this index and list (a stale, tampered or foreign cursor)
   * is refused as bad input before DynamoDB sees it.
   */
  private async byIndexPage(
    index: string,
    key: string,
    sortKey: string,
    value: string,
    page: PageRequest,
  ): Promise<Page<PackageRecord>> {
    const start = page.cursor ? decodeCursor(page.cursor, key, sortKey, value) : undefined;
    const r = await dynamo().send(
      new QueryCommand({
        ...this.indexQuery(index, key, value),
        Limit: page.limit,
        ExclusiveStartKey: start,
      }),
    );
    const items = (r.Items ?? []).filter((i) => i.kind === 'PACKAGE').map(fromItem);
    return { items, ...(r.LastEvaluatedKey ? { next: encodeCursor(r.LastEvaluatedKey) } : {}) };
  }

  listByStage(stage: Stage) {
    return this.byIndex('byListStage', 'listStage', stage);
  }
  listDelivery() {
    return this.byIndex('byDelivery', 'deliveryList', 'DELIVERY');
  }
  listAll() {
    return this.byIndex('byKind', 'kind', 'PACKAGE');
  }
  listByStagePage(stage: Stage, page: PageRequest) {
    return this.byIndexPage('byListStage', 'listStage', 'createdAt', stage, page);
  }
  listDeliveryPage(page: PageRequest) {
    return this.byIndexPage('byDelivery', 'deliveryList', 'deliveryStartedAt', 'DELIVERY', page);
  }
  listAllPage(page: PageRequest) {
    return this.byIndexPage('byKind', 'kind', 'createdAt', 'PACKAGE', page);
  }
  compactList(list: PackageListName): Promise<CompactPackage[]> {
    return packageListIndex(this.table).list(list);
  }
  forgetCompact(ids: readonly string[]): void {
    packageListIndex(this.table).forget(ids);
  }
  /** A DRAFT is on its initiator's byAssignee queue as `DRAFT#<stage>#<createdAt>` (package-items.ts). */
  async draftsOf(userId: string, stage: Stage): Promise<PackageRecord[]> {
    const items = await queryAll({
      TableName: this.table,
      IndexName: 'byAssignee',
      KeyConditionExpression: 'assignee = :u AND begins_with(queue, :q)',
      ExpressionAttributeValues: { ':u': userId, ':q': `${DRAFT_QUEUE}#${stage}#` },
      ScanIndexForward: false,
    });
    return items.filter((i) => i.kind === 'PACKAGE' && i.status === 'DRAFT').map(fromItem);
  }
  /**
   * One Query of the sparse byApprovedDevice index, newest approval first (decision 246); each candidate is
   * read again consistently (the index lags), so a package deleted or moved meanwhile is passed over.
   */
  async lastApproved(
    approvedFor: string,
    opts: { before?: string; exceptId: string },
  ): Promise<PackageRecord | null> {
    let start: Record<string, unknown> | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const r = await dynamo().send(
        new QueryCommand({
          TableName: this.table,
          IndexName: 'byApprovedDevice',
          KeyConditionExpression: opts.before ? 'approvedFor = :k AND approvedAt < :b' : 'approvedFor = :k',
          ExpressionAttributeValues: { ':k': approvedFor, ...(opts.before ? { ':b': opts.before } : {}) },
          ScanIndexForward: false,
          Limit: 5,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of r.Items ?? []) {
        const id = String(item.id);
        if (id === opts.exceptId) continue;
        const p = await this.get(id);
        if (p && isApproved(p.status) && approvedForKey(p) === approvedFor) return p;
      }
      start = r.LastEvaluatedKey;
      if (!start) return null;
    }
    return null;
  }
  listByResource(resourceId: string) {
    return this.byIndex('byResource', 'resourceId', resourceId);
  }
  listByDcc(dccId: string) {
    return this.byIndex('byDcc', 'dccId', dccId);
  }

  async taskPackageIds(userId: string, kind: TaskKind, stage?: Stage): Promise<string[]> {
    const items = await queryAll({
      TableName: this.table,
      IndexName: 'byAssignee',
      KeyConditionExpression: 'assignee = :u AND begins_with(queue, :q)',
      ExpressionAttributeValues: { ':u': userId, ':q': stage ? `${kind}#${stage}#` : `${kind}#` },
    });
    return items.map((i) => String(i.packageId));
  }

  async generationProgress(id: string, jobId: string, bytesDone: number, runId?: string): Promise<boolean> {
    return updateIf({
      TableName: this.table,
      Key: pkgKey(id),
      UpdateExpression: 'SET #g.#b = :b',
      ConditionExpression: `#s = :generating AND #g.#j = :j${runId ? ' AND #r = :r' : ''}`,
      ExpressionAttributeNames: {
        '#g': 'generation',
        '#b': 'bytesDone',
        '#s': 'status',
        '#j': 'jobId',
        ...(runId ? { '#r': 'generationRunId' } : {}),
      },
      ExpressionAttributeValues: {
        ':b': bytesDone,
        ':generating': 'GENERATING',
        ':j': jobId,
        ...(runId ? { ':r': runId } : {}),
      },
    });
  }

  claimGeneration(id: string, jobId: string, runId: string): Promise<boolean> {
    return updateIf({
      TableName: this.table,
      Key: pkgKey(id),
      UpdateExpression: 'SET #r = :r',
      ConditionExpression:
        '#s = :generating AND #g.#j = :j AND #g.#st = :running AND (attribute_not_exists(#r) OR #r = :r)',
      ExpressionAttributeNames: {
        '#g': 'generation',
        '#s': 'status',
        '#j': 'jobId',
        '#st': 'state',
        '#r': 'generationRunId',
      },
      ExpressionAttributeValues: {
        ':generating': 'GENERATING',
        ':j': jobId,
        ':running': 'RUNNING',
        ':r': runId,
      },
    });
  }

  async save(
    next: PackageRecord,
    expected: { version: number; status: PackageStatus },
    commit: PackageCommit = {},
  ): Promise<boolean> {
    try {
      // DynamoDB takes at most 100 items a transaction: far above one approver per role, a signer, their
      // mails and the events of one decision
      await commitRecorded(this.audit, async () => ({
        items: [this.putExpected(next, expected), ...(await commitItems(this, next.id, commit))],
        events: commit.events ?? [],
        result: undefined,
      }));
      return true;
    } catch (e) {
      if (refusedByCondition(e)) return false;
      throw e;
    }
  }

  vote: PackageRepository['vote'] = (id, userId, round, at, plan) =>
    decidePackage(this, id, userId, round, 'approve', at, plan);

  reject: PackageRepository['reject'] = (id, userId, round, note, at, plan) =>
    decidePackage(this, id, userId, round, 'reject', at, plan, note);

  delete(pkg: PackageRecord, deletion: PackageDeletion = {}): Promise<'deleted' | 'gone' | 'moved'> {
    return deletePackage(this, pkg, deletion);
  }
  async tombstone(id: string): Promise<PackageTombstone | null> {
    const r = await dynamo().send(
      new GetCommand({ TableName: this.table, Key: tombstoneKey(id), ConsistentRead: true }),
    );
    return r.Item ? fromTombstoneItem(r.Item) : null;
  }
}
