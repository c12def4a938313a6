import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  DeleteCommand,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { PackageStatus } from '../../../shared/api/contracts/packages';
import type { Stage } from '../../../shared/api/contracts/resources';
import { APPROVAL_POLICY, type ApprovalPolicy } from '../../../shared/domain/approval-policy';
import { approvedForKey, isApproved } from '../../../shared/domain/package-changes';
import type { PackageTombstone } from '../../../shared/domain/package-deletion';
import type { RoundName } from '../../../shared/domain/package-lifecycle';
import type {
  CompactPackage,
  PackageDeletion,
  PackageListName,
  PackageRecord,
  PackageRepository,
  Page,
  PageRequest,
  Task,
  TaskChanges,
  TaskKind,
  VoteResult,
} from '../../ports/package-repository';
import { dynamo } from '../aws-clients';
import { outboxPuts } from './outbox';
import { decodeCursor, encodeCursor } from './package-cursor';
import { deletePackage } from './package-delete';
import {
  DRAFT_QUEUE,
  fromItem,
  fromTombstoneItem,
  nameKey,
  pkgKey,
  taskItem,
  taskKey,
  toItem,
  tombstoneKey,
} from './package-items';
import { bumpListEpoch, packageListIndex } from './package-list-index';
import type { PackageTableContext } from './package-table-context';
import { failedAt, type PackageTransactItem, putIfAbsent, refusedByCondition } from './package-transact';
import { rejectPackage, votePackage } from './package-votes';
import { queryAll } from './query-all';

export class DynamoPackageRepository implements PackageRepository, PackageTableContext {
  /**
   * `resourcesTable` (read lazily) holds the resource items whose `packageRefs` count guards deletion;
   * `outboxTable` (read lazily, only by transitions that mail) the workflow mails (decision 095);
   * `policy` decides who may vote (shared/domain/approval-policy.ts; tests may pass another)
   */
  constructor(
    readonly table: string,
    readonly resourcesTable: () => string,
    readonly outboxTable: () => string = () => {
      throw new Error('This repository has no outbox table');
    },
    readonly policy: ApprovalPolicy = APPROVAL_POLICY,
  ) {}

  async create(pkg: PackageRecord): Promise<'ok' | 'nameTaken' | 'resourceGone'> {
    try {
      await dynamo().send(
        new TransactWriteCommand({
          TransactItems: [
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
        }),
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
      await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
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

  async generationProgress(id: string, jobId: string, bytesDone: number): Promise<boolean> {
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: this.table,
          Key: pkgKey(id),
          UpdateExpression: 'SET #g.#b = :b',
          ConditionExpression: '#s = :generating AND #g.#j = :j',
          ExpressionAttributeNames: { '#g': 'generation', '#b': 'bytesDone', '#s': 'status', '#j': 'jobId' },
          ExpressionAttributeValues: { ':b': bytesDone, ':generating': 'GENERATING', ':j': jobId },
        }),
      );
      return true;
    } catch (e) {
      if (e instanceof ConditionalCheckFailedException) return false;
      throw e;
    }
  }

  async save(
    next: PackageRecord,
    expected: { version: number; status: PackageStatus },
    tasks: TaskChanges = {},
  ): Promise<boolean> {
    const items: PackageTransactItem[] = [this.putExpected(next, expected)];
    if (tasks.removeAll) {
      const open = await queryAll({
        TableName: this.table,
        KeyConditionExpression: 'pk = :p AND begins_with(sk, :t)',
        ExpressionAttributeValues: { ':p': `PKG#${next.id}`, ':t': 'TASK#' },
        ConsistentRead: true,
      });
      // A task that is also added is replaced by its Put: one transaction may not touch an item twice (a
      // retried completion finds the task an earlier one added, and must lose on the version, not fail).
      const added = new Set((tasks.add ?? []).map((t) => taskKey(t).sk));
      for (const o of open) {
        if (!added.has(String(o.sk)))
          items.push({ Delete: { TableName: this.table, Key: { pk: o.pk, sk: o.sk } } });
      }
    }
    for (const t of tasks.add ?? []) items.push({ Put: { TableName: this.table, Item: taskItem(t) } });
    if (tasks.mails?.length) items.push(...outboxPuts(this.outboxTable(), tasks.mails));
    try {
      // DynamoDB takes at most 100 items a transaction: far above one approver per role plus a signer
      await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (e) {
      if (refusedByCondition(e)) return false;
      throw e;
    }
  }

  vote(id: string, userId: string, round: RoundName, at: string): Promise<VoteResult> {
    return votePackage(this, id, userId, round, at);
  }

  reject: PackageRepository['reject'] = (id, userId, round, note, at, mails = []) =>
    rejectPackage(this, id, userId, round, note, at, mails);

  async removeTask(task: Pick<Task, 'kind' | 'userId' | 'packageId'>): Promise<void> {
    await dynamo().send(new DeleteCommand({ TableName: this.table, Key: taskKey(task) }));
  }

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
