import { type ChainedEvent, verifyChain } from '../../../shared/domain/audit-chain';
import { ConflictError } from '../../../shared/domain/errors';
import { PACKAGE_ERR } from '../../../shared/domain/package-texts';
import type { StoredAuditEvent } from '../../ports/audit-log';
import type { PackageCore } from './package-core';
import { servedArtefact } from './stored-artefact';

/**
 * The generated XML of a package, for download (base64 when small, else a presigned URL); refused (409)
 * when the stored file is not the one generated (decision 302).
 */
export async function downloadPackage(core: PackageCore, id: string) {
  const p = await core.mustGet(id);
  if (!p.artefact) throw new ConflictError(PACKAGE_ERR.notGenerated);
  const fileName = `${p.name.replace(/[^\w.-]+/g, '_')}.xml`;
  const d = await servedArtefact(core, p, fileName);
  return { fileName, sizeBytes: p.artefact.sizeBytes, sha256: p.artefact.sha256, ...d };
}

/** The package's audit events in order, and whether their hash chain is intact (nothing altered or removed). */
export async function packageHistory(
  core: PackageCore,
  id: string,
): Promise<{ events: StoredAuditEvent[]; brokenAtSeq: number | null }> {
  await core.mustGet(id);
  const { events, head } = await core.d.audit.history(`PKG#${id}`);
  return { events, brokenAtSeq: verifyChain(events as ChainedEvent[], head) };
}
