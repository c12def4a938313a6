import { approvalTime, approvedForKey } from '../../../shared/domain/package-changes';
import type { PackageTombstone } from '../../../shared/domain/package-deletion';
import type { PackageRecord, Task } from '../../ports/package-repository';

/** Keys and item shapes of the packages table (infra/lib/definitions.ts; docs/architecture.md "Data"). */
export const pkgKey = (id: string) => ({ pk: `PKG#${id}`, sk: 'PKG' });
export const nameKey = (name: string) => ({ pk: `NAME#${name.toLowerCase()}`, sk: 'NAME' });
export const taskKey = (t: Pick<Task, 'kind' | 'userId' | 'packageId'>) => ({
  pk: `PKG#${t.packageId}`,
  sk: `TASK#${t.kind}#${t.userId}`,
});

/**
 * The header is stored as one JSON string, not as a map: it is most of the item (the whole template,
 * hundreds of nested attributes) and lists never return it, yet their Queries read it; as a string
 * DynamoDB and the SDK (un)marshal one attribute instead of hundreds (decision 051: ~6x the list pages
 * per second on DynamoDB Local). Items written before hold a map, which is read as it is.
 */
export function toItem(p: PackageRecord): Record<string, unknown> {
  return {
    ...p,
    header: JSON.stringify(p.header),
    ...pkgKey(p.id),
    kind: 'PACKAGE',
    listStage: p.resourceStage,
    // in the delivery list from the first delivery on
    deliveryList: p.deliveryStartedAt ? 'DELIVERY' : undefined,
    // a DRAFT waits for its initiator: on their byAssignee queue for the home page, which so
    // reads the caller's drafts instead of every package; a DRAFT only ever leaves by a whole-item save
    ...(p.status === 'DRAFT'
      ? { assignee: p.initiator.id, queue: `${DRAFT_QUEUE}#${p.resourceStage}#${p.createdAt}` }
      : {}),
    // an approved package is on the sparse byApprovedDevice index under its device and resource type
    // (decision 246); votes and rejections after approval are updates that keep these attributes
    ...approvedKeys(p),
  };
}

/** `approvedFor` and `approvedAt` of an approved package with a DCC copy; nothing otherwise. */
function approvedKeys(p: PackageRecord): { approvedFor?: string; approvedAt?: string } {
  const approvedFor = approvedForKey(p);
  const approvedAt = approvalTime(p);
  return approvedFor && approvedAt ? { approvedFor, approvedAt } : {};
}

/** The byAssignee queue prefix of a DRAFT package item (task kinds are APPROVE, SIGN, DELIVERY). */
export const DRAFT_QUEUE = 'DRAFT';

export function fromItem(item: Record<string, unknown>): PackageRecord {
  const {
    pk: _pk,
    sk: _sk,
    kind: _k,
    listStage: _l,
    deliveryList: _d,
    assignee: _a,
    queue: _q,
    approvedFor: _af,
    approvedAt: _at,
    header,
    ...rest
  } = item;
  return { ...rest, header: typeof header === 'string' ? JSON.parse(header) : header } as PackageRecord;
}

/** A task item: the byAssignee index lists a person's open tasks by kind, stage and age. */
export function taskItem(t: Task): Record<string, unknown> {
  return {
    ...taskKey(t),
    kind: 'TASK',
    assignee: t.userId,
    queue: `${t.kind}#${t.stage}#${t.createdAt}`,
    packageId: t.packageId,
  };
}

/**
 * What is kept of a deleted package under a key of its own, so nothing of the package's own
 * partition is left; without `createdAt`, `listStage`, `assignee`, `resourceId` or `dccId` it is in no index.
 */
export const tombstoneKey = (id: string) => ({ pk: `GONE#${id}`, sk: 'GONE' });

export function tombstoneItem(t: PackageTombstone): Record<string, unknown> {
  return { ...tombstoneKey(t.id), kind: 'TOMBSTONE', tombstone: t };
}

export function fromTombstoneItem(item: Record<string, unknown>): PackageTombstone {
  return item.tombstone as PackageTombstone;
}
