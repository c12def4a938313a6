import type { PackageStatus } from '../../../shared/api/contracts/packages';
import { ConflictError } from '../../../shared/domain/errors';
import type { PackageDeletion, PackageRecord } from '../../ports/package-repository';
import { commitRecorded } from './audit-commit';
import { outboxPuts } from './outbox';
import { nameKey, tombstoneItem } from './package-items';
import { bumpListEpoch } from './package-list-index';
import type { PackageTableContext } from './package-table-context';
import type { PackageTransactItem } from './package-transact';
import { queryAll } from './query-all';

/** tries of a deletion that keeps losing to concurrent transitions (each vote moves the version on) */
const DELETE_ATTEMPTS = 10;

/** A package's deletion (split from package-repository.ts to keep each file readable). */
export async function deletePackage(
  ctx: PackageTableContext,
  pkg: PackageRecord,
  deletion: PackageDeletion,
): Promise<'deleted' | 'gone' | 'moved'> {
  // The rows are read, then deleted in one transaction on condition that the package has not changed in
  // between: a transition committed meanwhile (say the last approval adding the signer's task) would
  // otherwise leave a task behind that points at a deleted package. On a lost race, read again.
  let losses = 0;
  const outcome = await commitRecorded<'deleted' | 'gone' | 'moved'>(
    ctx.audit,
    async (lost) => {
      if (lost === 'state' && ++losses >= DELETE_ATTEMPTS)
        throw new ConflictError('The package kept changing while it was being deleted; try again');
      const rows = await queryAll({
        TableName: ctx.table,
        KeyConditionExpression: 'pk = :p',
        ExpressionAttributeValues: { ':p': `PKG#${pkg.id}` },
        ConsistentRead: true,
      });
      const head = rows.find((r) => r.sk === 'PKG');
      if (!head) return { done: 'gone' }; // deleted meanwhile by someone else: nothing of it is left to remove
      // a plain deletion that lost to a transition putting the package in flight
      if (deletion.onlyIn && !deletion.onlyIn.includes(head.status as PackageStatus))
        return { done: 'moved' };
      const items: PackageTransactItem[] = rows.map((r) =>
        r.sk === 'PKG'
          ? {
              Delete: {
                TableName: ctx.table,
                Key: { pk: r.pk, sk: r.sk },
                ConditionExpression: '#v = :v',
                ExpressionAttributeNames: { '#v': 'version' },
                ExpressionAttributeValues: { ':v': head.version },
              },
            }
          : { Delete: { TableName: ctx.table, Key: { pk: r.pk, sk: r.sk } } },
      );
      items.push({
        Delete: {
          TableName: ctx.table,
          Key: nameKey(pkg.name),
          ConditionExpression: 'attribute_not_exists(pk) OR packageId = :id',
          ExpressionAttributeValues: { ':id': pkg.id },
        },
      });
      items.push({
        Update: {
          TableName: ctx.resourcesTable(),
          Key: { pk: `RES#${pkg.resourceId}` },
          UpdateExpression: 'ADD packageRefs :minus',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':minus': -1 },
        },
      });
      // what is kept of it, the mails to the people waiting on it and its audit event (decision
      // 283), with the deletion or not at all
      if (deletion.tombstone)
        items.push({ Put: { TableName: ctx.table, Item: tombstoneItem(deletion.tombstone) } });
      if (deletion.mails?.length) items.push(...outboxPuts(ctx.outboxTable(), deletion.mails));
      // a package has one row per assigned person at most, and one mail per waiting person: far below the
      // 100 items of a transaction
      return { items, events: deletion.events ?? [], result: 'deleted' };
    },
    { retryStateConflicts: true },
  );
  // after the transaction, not in it: every deletion in it would contend for the one epoch item. Should
  // this fail, a page read that misses the package drops its entry (forgetCompact): the deletion stands
  // and is answered as done.
  if (outcome === 'deleted') await bumpListEpoch(ctx.table).catch(() => undefined);
  return outcome;
}
