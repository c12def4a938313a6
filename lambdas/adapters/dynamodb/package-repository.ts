import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  DeleteCommand,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { PackageStatus } from '../../../shared/api/contracts/packages';
import type { Stage } from '../../../shared/api/contracts/resources';
import { BadRequestError, ConflictError } from '../../../shared/domain/errors';
import type {
  OutboxMail,
  PackageRecord,
  PackageRepository,
  Page,
  PageRequest,
  Task,
  TaskKind,
  VoteResult,
} from '../../ports/package-repository';
import { dynamo } from '../aws-clients';
import { outboxPuts } from './outbox';
import { queryAll } from './query-all';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** tries of a deletion that keeps losing to concurrent transitions (each vote moves the version on) */
const DELETE_ATTEMPTS = 10;

const pkgKey = (id: string) => ({ pk: `PKG#${id}`, sk: 'PKG' });
const nameKey = (name: string) => ({ pk: `NAME#${name.toLowerCase()}`, sk: 'NAME' });
const taskKey = (t: Pick<Task, 'kind' | 'userId' | 'packageId'>) => ({
  pk: `PKG#${t.packageId}`,
  sk: `TASK#${t.kind}#${t.userId}`,
});

/**
 * The header is stored as one JSON string, not as a map: it is most of the item (the whole template,
 * hundreds of nested attributes) and lists never return it, yet their Queries read it; as a string
 * DynamoDB and the SDK (un)marshal one attribute instead of hundreds (decision 051: ~6x the list pages
 * per second on DynamoDB Local). Items written before hold a map, which is read as it is.
 */
function toItem(p: PackageRecord): Record<string, unknown> {
  return {
    ...p,
    header: JSON.stringify(p.header),
    ...pkgKey(p.id),
    kind: 'PACKAGE',
    listStage: p.resourceStage,
    // in the delivery list from the first delivery on
    deliveryList: p.deliveryStartedAt ? 'DELIVERY' : undefined,
  };
}

function fromItem(item: Record<string, unknown>): PackageRecord {
  const { pk: _pk, sk: _sk, kind: _k, listStage: _l, deliveryList: _d, header, ...rest } = item;
  return { ...rest, header: typeof header === 'string' ? JSON.parse(header) : header } as PackageRecord;
}

const encodeCursor = (key: Record<string, unknown>): string =>
  Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');

/** The ExclusiveStartKey of a cursor: the table keys (pk, sk) and this index's keys, all strings, of this list. */
function decodeCursor(cursor: string, key: string, sortKey: string, value: string): Record<string, string> {
  const invalid = () => new BadRequestError('cursor is not a cursor this list returned');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid();
  const entries = Object.entries(parsed);
  const expected = new Set(['pk', 'sk', key, sortKey]);
  if (
    entries.length !== expected.size ||
    entries.some(([k, v]) => !expected.has(k) || typeof v !== 'string' || v.length === 0 || v.length > 512) ||
    (parsed as Record<string, string>)[key] !== value
  )
    throw invalid();
  return parsed as Record<string, string>;
}

function cancelled(e: unknown): boolean {
  return e instanceof TransactionCanceledException || e instanceof ConditionalCheckFailedException;
}

export class DynamoPackageRepository implements PackageRepository {
  /**
   * `resourcesTable` (read lazily) holds the resource items whose `packageRefs` count guards deletion;
   * `outboxTable` (read lazily, only by transitions that mail) the workflow mails (decision 095)
   */
  constructor(
    private readonly table: string,
    private readonly resourcesTable: () => string,
    private readonly outboxTable: () => string = () => {
      throw new Error('This repository has no outbox table');
    },
  ) {}

  async create(pkg: PackageRecord): Promise<'ok' | 'nameTaken' | 'resourceGone'> {
    try {
      await dynamo().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.table,
                Item: { ...nameKey(pkg.name), kind: 'NAME', packageId: pkg.id },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: this.table,
                Item: toItem(pkg),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
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
      if (e instanceof TransactionCanceledException) {
        const reasons = e.CancellationReasons ?? [];
        if (reasons[0]?.Code === 'ConditionalCheckFailed') return 'nameTaken';
        if (reasons[2]?.Code === 'ConditionalCheckFailed') return 'resourceGone';
      }
      throw e;
    }
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

  private async byIndex(index: string, key: string, value: string): Promise<PackageRecord[]> {
    const items = await queryAll({
      TableName: this.table,
      IndexName: index,
      KeyConditionExpression: '#k = :v',
      ExpressionAttributeNames: { '#k': key },
      ExpressionAttributeValues: { ':v': value },
      ScanIndexForward: false,
    });
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
        TableName: this.table,
        IndexName: index,
        KeyConditionExpression: '#k = :v',
        ExpressionAttributeNames: { '#k': key },
        ExpressionAttributeValues: { ':v': value },
        ScanIndexForward: false,
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

  private taskItem(t: Task): Record<string, unknown> {
    return {
      ...taskKey(t),
      kind: 'TASK',
      assignee: t.userId,
      queue: `${t.kind}#${t.stage}#${t.createdAt}`,
      packageId: t.packageId,
    };
  }

  async save(
    next: PackageRecord,
    expected: { version: number; status: PackageStatus },
    tasks: { add?: Task[]; removeAll?: boolean; mails?: OutboxMail[] } = {},
  ): Promise<boolean> {
    const items: TransactItem[] = [
      {
        Put: {
          TableName: this.table,
          Item: toItem(next),
          ConditionExpression: '#v = :v AND #s = :s',
          ExpressionAttributeNames: { '#v': 'version', '#s': 'status' },
          ExpressionAttributeValues: { ':v': expected.version, ':s': expected.status },
        },
      },
    ];
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
    for (const t of tasks.add ?? []) items.push({ Put: { TableName: this.table, Item: this.taskItem(t) } });
    if (tasks.mails?.length) items.push(...outboxPuts(this.outboxTable(), tasks.mails));
    try {
      // DynamoDB takes at most 100 items a transaction: far above one approver per role plus a signer
      await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (e) {
      if (cancelled(e)) return false;
      throw e;
    }
  }

  async vote(id: string, userId: string, round: 'approval' | 'delivery', at: string): Promise<VoteResult> {
    const map = round === 'approval' ? 'approvers' : 'deliveryApprovers';
    const counter = round === 'approval' ? 'approvedCount' : 'deliveryApprovedCount';
    const waiting: PackageStatus = round === 'approval' ? 'PENDING_APPROVAL' : 'DELIVERY_PENDING';
    try {
      const r = await dynamo().send(
        new UpdateCommand({
          TableName: this.table,
          Key: pkgKey(id),
          UpdateExpression:
            'SET #m.#u.approved = :t, #m.#u.decidedAt = :at, updatedAt = :at ADD #c :one, #v :one',
          ConditionExpression: '#s = :waiting AND #m.#u.approved = :f AND #m.#u.rejected = :f',
          ExpressionAttributeNames: {
            '#m': map,
            '#u': userId,
            '#c': counter,
            '#v': 'version',
            '#s': 'status',
          },
          ExpressionAttributeValues: { ':t': true, ':f': false, ':at': at, ':one': 1, ':waiting': waiting },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { ok: true, pkg: fromItem(r.Attributes ?? {}) };
    } catch (e) {
      if (!(e instanceof ConditionalCheckFailedException)) throw e;
      return { ok: false, reason: await this.whyRefused(id, userId, map, waiting) };
    }
  }

  async reject(
    id: string,
    userId: string,
    round: 'approval' | 'delivery',
    note: string,
    at: string,
    to: PackageStatus,
    mails: OutboxMail[] = [],
  ): Promise<VoteResult> {
    const map = round === 'approval' ? 'approvers' : 'deliveryApprovers';
    const waiting: PackageStatus = round === 'approval' ? 'PENDING_APPROVAL' : 'DELIVERY_PENDING';
    const update = {
      TableName: this.table,
      Key: pkgKey(id),
      UpdateExpression:
        'SET #m.#u.rejected = :t, #m.#u.rejectionNote = :note, #m.#u.decidedAt = :at, rejectionNote = :note, #s = :to, updatedAt = :at ADD #v :one',
      ConditionExpression: '#s = :waiting AND #m.#u.approved = :f AND #m.#u.rejected = :f',
      ExpressionAttributeNames: { '#m': map, '#u': userId, '#v': 'version', '#s': 'status' },
      ExpressionAttributeValues: {
        ':t': true,
        ':f': false,
        ':at': at,
        ':one': 1,
        ':waiting': waiting,
        ':note': note,
        ':to': to,
      },
    };
    try {
      if (mails.length) {
        // the rejection and its mails commit together (decision 095); the transaction returns no item
        await dynamo().send(
          new TransactWriteCommand({
            TransactItems: [{ Update: update }, ...outboxPuts(this.outboxTable(), mails)],
          }),
        );
        const pkg = await this.get(id);
        if (!pkg) return { ok: false, reason: 'notFound' };
        return { ok: true, pkg };
      }
      const r = await dynamo().send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' }));
      return { ok: true, pkg: fromItem(r.Attributes ?? {}) };
    } catch (e) {
      if (!(e instanceof ConditionalCheckFailedException) && !(e instanceof TransactionCanceledException))
        throw e;
      return { ok: false, reason: await this.whyRefused(id, userId, map, waiting) };
    }
  }

  private async whyRefused(
    id: string,
    userId: string,
    map: 'approvers' | 'deliveryApprovers',
    waiting: PackageStatus,
  ) {
    const p = await this.get(id);
    if (!p) return 'notFound' as const;
    const entry = p[map]?.[userId];
    if (!entry) return 'notAssigned' as const;
    if (entry.approved || entry.rejected) return 'alreadyDecided' as const;
    if (p.status !== waiting) return 'notWaiting' as const;
    return 'notWaiting' as const;
  }

  async removeTask(task: Pick<Task, 'kind' | 'userId' | 'packageId'>): Promise<void> {
    await dynamo().send(new DeleteCommand({ TableName: this.table, Key: taskKey(task) }));
  }

  async delete(pkg: PackageRecord): Promise<void> {
    // The rows are read, then deleted in one transaction on condition that the package has not changed in
    // between: a transition committed meanwhile (say the last approval adding the signer's task) would
    // otherwise leave a task behind that points at a deleted package. On a lost race, read again.
    for (let attempt = 0; attempt < DELETE_ATTEMPTS; attempt++) {
      const rows = await queryAll({
        TableName: this.table,
        KeyConditionExpression: 'pk = :p',
        ExpressionAttributeValues: { ':p': `PKG#${pkg.id}` },
        ConsistentRead: true,
      });
      const head = rows.find((r) => r.sk === 'PKG');
      if (!head) return; // deleted meanwhile by someone else: nothing of it is left to remove
      const items: TransactItem[] = rows.map((r) =>
        r.sk === 'PKG'
          ? {
              Delete: {
                TableName: this.table,
                Key: { pk: r.pk, sk: r.sk },
                ConditionExpression: '#v = :v',
                ExpressionAttributeNames: { '#v': 'version' },
                ExpressionAttributeValues: { ':v': head.version },
              },
            }
          : { Delete: { TableName: this.table, Key: { pk: r.pk, sk: r.sk } } },
      );
      items.push({
        Delete: {
          TableName: this.table,
          Key: nameKey(pkg.name),
          ConditionExpression: 'attribute_not_exists(pk) OR packageId = :id',
          ExpressionAttributeValues: { ':id': pkg.id },
        },
      });
      items.push({
        Update: {
          TableName: this.resourcesTable(),
          Key: { pk: `RES#${pkg.resourceId}` },
          UpdateExpression: 'ADD packageRefs :minus',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':minus': -1 },
        },
      });
      try {
        // a package has one row per assigned person at most: far below the 100 items of a transaction
        await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
        return;
      } catch (e) {
        if (!(e instanceof TransactionCanceledException)) throw e;
        await new Promise((r) => setTimeout(r, Math.random() * 20 * (attempt + 1)));
      }
    }
    throw new ConflictError('The package kept changing while it was being deleted; try again');
  }
}
