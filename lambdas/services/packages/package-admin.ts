import { NotFoundError } from '../../../shared/domain/errors';
import { AUDIT_MEANING } from '../../../shared/domain/package-texts';
import type { PackageRecord } from '../../ports/package-repository';
import type { UserRecord } from '../../ports/user-repository';
import type { PackageCore } from './package-core';

/**
 * An admin deletes packages in any status (the lifecycle's `delete` row): each with its tasks, name claim
 * and generated file. Unknown ids refuse the whole call before anything is deleted.
 */
export async function deletePackages(core: PackageCore, admin: UserRecord, ids: string[]): Promise<void> {
  const found = await Promise.all([...new Set(ids)].map((id) => core.d.packages.get(id)));
  const missing = ids.filter((id) => !found.some((p) => p?.id === id));
  if (missing.length) throw new NotFoundError(`No package with id ${missing.join(', ')}`);
  for (const p of found as PackageRecord[]) {
    await core.d.packages.delete(p);
    if (p.artefact) await core.d.artefacts().remove(p.artefact);
    await core.audit(p, admin, 'PACKAGE_DELETED', AUDIT_MEANING.delete);
  }
}
