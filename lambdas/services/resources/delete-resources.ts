import { ConflictError, NotFoundError } from '../../../shared/domain/errors';
import { RESOURCE_ERR } from '../../../shared/domain/resource-rules';
import type { ResourceRecord } from '../../ports/resource-repository';
import { type Actor, discardBlobs, type ResourceDeps, recordKeys } from './common';

/**
 * Admin deletion of resources, their name claims and bytes. All ids must exist (404) and none may be
 * used by a package (409, naming the packages): deletion never breaks a package's traceability.
 */
export async function deleteResources(d: ResourceDeps, admin: Actor, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)];
  const found = await Promise.all(unique.map((id) => d.repo.getById(id)));
  const missing = unique.filter((_, i) => !found[i]);
  if (missing.length > 0) throw new NotFoundError(RESOURCE_ERR.resourceNotFound(missing));
  const records = found as ResourceRecord[];
  const uses = await Promise.all(records.map((r) => d.references.packagesUsing(r.id)));
  const blocked = records
    .map((r, i) => ({ r, refs: uses[i] ?? [] }))
    .filter((x) => x.refs.length > 0)
    .map((x) => `'${x.r.name}' is used by ${x.refs.map((p) => `'${p.packageName}'`).join(', ')}`);
  if (blocked.length > 0) throw new ConflictError(RESOURCE_ERR.stillReferenced(blocked.join('; ')));

  const bucket = d.config.bucket();
  for (const r of records) {
    const deleted = {
      subject: `RES#${r.id}`,
      action: 'RESOURCE_DELETED',
      meaning: `deletes the ${r.resourceType.toLowerCase()} '${r.name}' (${r.resourceStage}) and its files`,
      actorId: admin.id,
      actorName: admin.name,
      actorRole: admin.userRole,
      details: { name: r.name, fileName: r.fileName, sha256: r.sha256, sizeBytes: r.sizeBytes },
    };
    // the record and its event first (one transaction, decision 283)
    const result = await d.repo.delete(r, { events: [deleted] });
    if (result === 'missing') continue;
    if (result === 'referenced') {
      throw new ConflictError(RESOURCE_ERR.stillReferenced(`'${r.name}' was just used by a new package`));
    }
    // then the bytes, so nothing can point at missing bytes; stray bytes are only logged
    await discardBlobs(d, bucket, recordKeys(r));
  }
}
