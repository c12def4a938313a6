import { ConflictError } from '../../../shared/domain/errors';
import { PACKAGE_ERR } from '../../../shared/domain/package-texts';
import {
  STORED_FILE_ERR,
  type StoredFileCheck,
  storedFileProblemText,
} from '../../../shared/domain/stored-file';
import { logger } from '../../observability/logger';
import { metrics } from '../../observability/metrics';
import { StoredFileMismatch } from '../../ports/artefact-service';
import type { ArtefactRef, PackageRecord } from '../../ports/package-repository';
import type { PackageCore } from './package-core';

/**
 * The refusal of a package file that is not the one generated (decision 302): one 409 naming what is
 * wrong, one log line saying what was found, and one count of the business metric `ArtefactMismatch`
 * (decision 312) that the ArtefactMismatchAlarm watches.
 */
function logMismatch(p: PackageRecord, check: StoredFileCheck, e: StoredFileMismatch): void {
  logger().error('stored artefact does not match its record', {
    kind: 'artefact-mismatch',
    check,
    packageId: p.id,
    file: e.file,
    key: e.pin.key,
    problem: e.problem.kind,
    recorded: { sha256: e.pin.sha256, sizeBytes: e.pin.sizeBytes, versionId: e.pin.versionId },
    found: e.problem,
  });
  metrics().count('ArtefactMismatch');
}

/** Runs `read` on the package's stored files; a mismatch is logged and refused with the check's 409. */
async function refusingMismatch<T>(
  p: PackageRecord,
  artefact: ArtefactRef,
  check: StoredFileCheck,
  read: () => Promise<T>,
): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (!(e instanceof StoredFileMismatch)) throw e;
    logMismatch(p, check, e);
    throw new ConflictError(
      STORED_FILE_ERR[check](artefact.generatedAt, storedFileProblemText(e.problem, e.pin)),
    );
  }
}

/** The package's generated file; a 409 when there is none yet. */
function artefactOf(p: PackageRecord): ArtefactRef {
  if (!p.artefact) throw new ConflictError(PACKAGE_ERR.notGenerated);
  return p.artefact;
}

/** The generated XML for download (base64 or a URL), refused unless the stored file is the generated one. */
export function servedArtefact(core: PackageCore, p: PackageRecord, fileName: string) {
  const artefact = artefactOf(p);
  return refusingMismatch(p, artefact, 'download', () => core.d.artefacts().download(artefact, fileName));
}

/** The file a delivery delivers: the generated XML, checked in storage before anything records it delivered. */
export async function deliveredArtefact(core: PackageCore, p: PackageRecord): Promise<ArtefactRef> {
  const artefact = artefactOf(p);
  await refusingMismatch(p, artefact, 'delivery', () => core.d.artefacts().verifyStored(artefact));
  return artefact;
}

/** The file a delivery names in its audit event: where, how large, its SHA-256 and S3 version (if any). */
export const deliveredFile = (a: ArtefactRef) => ({
  key: a.key,
  sizeBytes: a.sizeBytes,
  sha256: a.sha256,
  generatedAt: a.generatedAt,
  ...(a.versionId ? { versionId: a.versionId } : {}),
});

/**
 * The stored provenance statement (null: the package has none), refused unless it is the one signed. A
 * statement stored before statements were pinned has no SHA-256 on record: it must at least name this
 * package, so another package's statement copied over it is refused too.
 */
export function servedStatement(core: PackageCore, p: PackageRecord): Promise<string | null> {
  const artefact = artefactOf(p);
  return refusingMismatch(p, artefact, 'statement', async () => {
    const text = await core.d.artefacts().statement(artefact);
    if (text && !artefact.statementSha256) {
      const named = statementPackageId(text);
      if (named !== p.id)
        throw new StoredFileMismatch(
          'statement',
          { key: artefact.statementKey ?? '', sha256: '' },
          { kind: 'otherPackage', packageId: named ?? 'none named' },
        );
    }
    return text;
  });
}

/** The package id a stored envelope's statement names (`predicate.package.id`), or null when unreadable. */
function statementPackageId(text: string): string | null {
  try {
    const envelope = JSON.parse(text) as { payload?: unknown };
    if (typeof envelope.payload !== 'string') return null;
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
    const id = statement?.predicate?.package?.id;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}
