import {
  approvalTime,
  approvedForKey,
  type PackageChanges,
  packageChanges,
} from '../../../shared/domain/package-changes';
import type { PackageCore } from './package-core';

/**
 * "Changes since the last approved package" of one package (issue 25, decisions 245–246): the newest
 * approved package for the same device (its DCC copy's device id) and resource type, found by the
 * byApprovedDevice index; an already approved package is compared with the one approved before it.
 * A package without a DCC copy has no device yet: there is nothing to compare it with.
 */
export async function changesOf(core: PackageCore, id: string): Promise<PackageChanges> {
  const p = await core.mustGet(id);
  const key = approvedForKey(p);
  if (!key) return packageChanges(p, null);
  const before = approvalTime(p);
  const previous = await core.d.packages.lastApproved(key, { exceptId: p.id, ...(before ? { before } : {}) });
  return packageChanges(p, previous);
}
