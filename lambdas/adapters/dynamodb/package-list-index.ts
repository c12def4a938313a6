import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CompactPackage, PackageListName } from '../../ports/package-repository';
import { dynamo } from '../aws-clients';
import { queryAll } from './query-all';

/** The item whose counter moves on every deletion: a change the top-up reads below cannot see. */
export const LIST_EPOCH_KEY = { pk: 'LISTS#EPOCH', sk: 'EPOCH' } as const;

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
    createdAt: String(item.createdAt ?? ''),
    ...(typeof item.deliveryStartedAt === 'string' ? { deliveryStartedAt: item.deliveryStartedAt } : {}),
  };
}

/**
 * The packages' compact list index held in this Lambda's memory (decision 210): every package's search and
 * sort fields, ~0.3 KB each, built once from the `byKindCompact` index and kept current by cheap reads
 * per view: the epoch item (one small GetItem; deletions move it), then the entries created, or put into
 * delivery, since the newest held (a Query that returns only those). A moved epoch rebuilds it. Those
 * fields never change after creation (name, resource, note, type, stage, signed) but for
 * `deliveryStartedAt`, set once by the first delivery, and a draft's step-1 edit (name, note, type:
 * decision 242), which moves the epoch, so nothing else can make the index stale.
 */
export class PackageListIndex {
  private rows = new Map<string, CompactPackage>();
  private epoch: number | undefined;
  private newestCreated = '';
  private newestDelivery = '';
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
      IndexName: 'byKindCompact',
      KeyConditionExpression: 'kind = :k',
      ExpressionAttributeValues: { ':k': 'PACKAGE' },
    });
    this.rows = new Map();
    this.newestCreated = '';
    this.newestDelivery = '';
    this.add(items);
    this.sorted = {};
  }

  private async topUp(): Promise<void> {
    const [created, delivered] = await Promise.all([
      this.newer('byKindCompact', 'kind', 'PACKAGE', 'createdAt', this.newestCreated),
      // byDelivery projects whole items; only the few entries since the newest held are read
      this.newer('byDelivery', 'deliveryList', 'DELIVERY', 'deliveryStartedAt', this.newestDelivery),
    ]);
    if (created.length + delivered.length === 0) return;
    const changed = this.add([...created, ...delivered]);
    if (changed) this.sorted = {};
  }

  private async newer(index: string, key: string, value: string, sortKey: string, since: string) {
    const out: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const r = await dynamo().send(
        new QueryCommand({
          TableName: this.table,
          IndexName: index,
          KeyConditionExpression: since ? '#k = :v AND #s >= :since' : '#k = :v',
          ExpressionAttributeNames: { '#k': key, ...(since ? { '#s': sortKey } : {}) },
          ExpressionAttributeValues: { ':v': value, ...(since ? { ':since': before(since, LATE_MS) } : {}) },
          ExclusiveStartKey: start,
        }),
      );
      out.push(...(r.Items ?? []));
      start = r.LastEvaluatedKey;
    } while (start);
    return out.filter((i) => i.kind === 'PACKAGE');
  }

  /** Adds or updates entries; whether any entry is new or changed. */
  private add(items: Record<string, unknown>[]): boolean {
    let changed = false;
    for (const item of items) {
      const row = compact(item);
      const held = this.rows.get(row.id);
      if (!held || held.deliveryStartedAt !== row.deliveryStartedAt) {
        this.rows.set(row.id, row);
        changed = true;
      }
      if (row.createdAt > this.newestCreated) this.newestCreated = row.createdAt;
      if (row.deliveryStartedAt && row.deliveryStartedAt > this.newestDelivery)
        this.newestDelivery = row.deliveryStartedAt;
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
