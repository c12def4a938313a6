import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CompactPackage, PackageListName } from '../../ports/package-repository';
import { dynamo } from '../aws-clients';
import { queryAll } from './query-all';

/** The item whose counter moves on every deletion: a change the top-up reads below cannot see. */
export const LIST_EPOCH_KEY = { pk: 'LISTS#EPOCH', sk: 'EPOCH' } as const;

/** The GSI the index is built from and topped up by (infra/lib/definitions.ts, decision 260). */
const LIST_INDEX = 'byKindUpdated';

/** how far back a top-up reads again: an index entry that arrived late (GSIs are eventually consistent) */
const LATE_MS = 60_000;

const before = (iso: string, ms: number) => (iso ? new Date(Date.parse(iso) - ms).toISOString() : '');

function compact(item: Record<string, unknown>): CompactPackage {
  return {
    id: String(item.id),
    name: String(item.name ?? ''),
    resourceName: String(item.resourceName ?? ''),
    note: String(item.note ?? ''),
    resourceType: item.resourceType as CompactPackage['resourceType'],
    resourceStage: item.resourceStage as CompactPackage['resourceStage'],
    signed: item.signed === true,
    status: item.status as CompactPackage['status'],
    createdAt: String(item.createdAt ?? ''),
    updatedAt: String(item.updatedAt ?? ''),
    ...(typeof item.deliveryStartedAt === 'string' ? { deliveryStartedAt: item.deliveryStartedAt } : {}),
  };
}

/**
 * The packages' compact list index held in this Lambda's memory (decisions 210, 260): every package's search
 * and sort fields and its status, ~0.3 KB each, built once from the `byKindUpdated` index and kept current by
 * cheap reads per view: the epoch item (one small GetItem; deletions move it), then the entries written
 * since the newest held (one Query of the same index by `updatedAt`, which every write of a package moves:
 * creations, status changes, delivery starts, a draft's step-1 edit). A moved epoch rebuilds it.
 */
export class PackageListIndex {
  private rows = new Map<string, CompactPackage>();
  private epoch: number | undefined;
  private newestUpdated = '';
  private sorted: Partial<Record<PackageListName, CompactPackage[]>> = {};
  private pending: Promise<void> | undefined;

  constructor(private readonly table: string) {}

  /** The list's entries, newest first (by creation; the delivery list by delivery start). */
  async list(name: PackageListName): Promise<CompactPackage[]> {
    // concurrent views in one Lambda share one refresh
    this.pending ??= this.refresh().finally(() => {
      this.pending = undefined;
    });
    await this.pending;
    this.sorted[name] ??= this.order(name);
    return this.sorted[name];
  }

  /** Entries whose package is gone (a deletion the index had not seen yet): dropped at once. */
  forget(ids: readonly string[]): void {
    let changed = false;
    for (const id of ids) changed = this.rows.delete(id) || changed;
    if (changed) this.sorted = {};
  }

  private order(name: PackageListName): CompactPackage[] {
    const all = [...this.rows.values()];
    if (name === 'DELIVERY')
      return all
        .filter((p) => p.deliveryStartedAt)
        .sort((a, b) => cmpDesc(a.deliveryStartedAt ?? '', b.deliveryStartedAt ?? '') || cmpDesc(a.id, b.id));
    return all
      .filter((p) => name === 'ALL' || p.resourceStage === name)
      .sort((a, b) => cmpDesc(a.createdAt, b.createdAt) || cmpDesc(a.id, b.id));
  }

  private async refresh(): Promise<void> {
    const r = await dynamo().send(
      new GetCommand({ TableName: this.table, Key: LIST_EPOCH_KEY, ConsistentRead: true }),
    );
    const epoch = typeof r.Item?.epoch === 'number' ? r.Item.epoch : 0;
    if (epoch !== this.epoch) {
      await this.rebuild();
      this.epoch = epoch;
      return;
    }
    await this.topUp();
  }

  private async rebuild(): Promise<void> {
    const items = await queryAll({
      TableName: this.table,
      IndexName: LIST_INDEX,
      KeyConditionExpression: 'kind = :k',
      ExpressionAttributeValues: { ':k': 'PACKAGE' },
    });
    this.rows = new Map();
    this.newestUpdated = '';
    this.add(items);
    this.sorted = {};
  }

  private async topUp(): Promise<void> {
    const changed = await this.changedSince(this.newestUpdated);
    if (changed.length && this.add(changed)) this.sorted = {};
  }

  /** The entries written since `since` (and the late ones of the minute before it), oldest first. */
  private async changedSince(since: string) {
    const out: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const r = await dynamo().send(
        new QueryCommand({
          TableName: this.table,
          IndexName: LIST_INDEX,
          KeyConditionExpression: since ? '#k = :v AND #s >= :since' : '#k = :v',
          ExpressionAttributeNames: { '#k': 'kind', ...(since ? { '#s': 'updatedAt' } : {}) },
          ExpressionAttributeValues: {
            ':v': 'PACKAGE',
            ...(since ? { ':since': before(since, LATE_MS) } : {}),
          },
          ExclusiveStartKey: start,
        }),
      );
      out.push(...(r.Items ?? []));
      start = r.LastEvaluatedKey;
    } while (start);
    return out;
  }

  /** Adds or updates entries; whether any entry is new or changed (its last write is newer). */
  private add(items: Record<string, unknown>[]): boolean {
    let changed = false;
    for (const item of items) {
      const row = compact(item);
      const held = this.rows.get(row.id);
      if (!held || held.updatedAt < row.updatedAt) {
        this.rows.set(row.id, row);
        changed = true;
      }
      if (row.updatedAt > this.newestUpdated) this.newestUpdated = row.updatedAt;
    }
    return changed;
  }
}

const cmpDesc = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);

const indexes = new Map<string, PackageListIndex>();
/** One index per packages table in this Lambda (module scope: kept while the Lambda is warm). */
export function packageListIndex(table: string): PackageListIndex {
  let index = indexes.get(table);
  if (!index) {
    index = new PackageListIndex(table);
    indexes.set(table, index);
  }
  return index;
}

/** Moves the epoch on: every Lambda's index rebuilds at its next view (after a deletion). */
export async function bumpListEpoch(table: string): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: table,
      Key: LIST_EPOCH_KEY,
      UpdateExpression: 'ADD epoch :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
}
