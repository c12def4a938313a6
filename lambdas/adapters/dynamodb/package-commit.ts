import type { PackageCommit } from '../../ports/package-repository';
import { outboxPuts } from './outbox';
import { taskItem, taskKey } from './package-items';
import type { PackageTableContext } from './package-table-context';
import type { PackageTransactItem } from './package-transact';
import { queryAll } from './query-all';

/**
 * The items a package write commits beside the package item (decisions 095, 283): the tasks it closes
 * (all, or some) and opens, and its outbox mails. The audit events are chained by `commitRecorded`.
 * One transaction may not touch an item twice: a task both closed and opened is written once, by its Put
 * (a retried completion finds the task an earlier one added, and must lose on the version, not fail).
 */
export async function commitItems(
  ctx: PackageTableContext,
  packageId: string,
  commit: PackageCommit,
): Promise<PackageTransactItem[]> {
  const items: PackageTransactItem[] = [];
  const added = new Set((commit.add ?? []).map((t) => taskKey(t).sk));
  const closed = new Set<string>();
  if (commit.removeAll) {
    const open = await queryAll({
      TableName: ctx.table,
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :t)',
      ExpressionAttributeValues: { ':p': `PKG#${packageId}`, ':t': 'TASK#' },
      ConsistentRead: true,
    });
    for (const o of open) closed.add(String(o.sk));
  }
  for (const t of commit.remove ?? []) closed.add(taskKey({ ...t, packageId }).sk);
  for (const sk of closed)
    if (!added.has(sk)) items.push({ Delete: { TableName: ctx.table, Key: { pk: `PKG#${packageId}`, sk } } });
  for (const t of commit.add ?? []) items.push({ Put: { TableName: ctx.table, Item: taskItem(t) } });
  if (commit.mails?.length) items.push(...outboxPuts(ctx.outboxTable(), commit.mails));
  return items;
}
