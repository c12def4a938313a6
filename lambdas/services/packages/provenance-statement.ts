import type { DsseEnvelope } from '../../../shared/api/contracts/provenance-statement';
import { NotFoundError } from '../../../shared/domain/errors';
import type { PackageCore } from './package-core';

/** Why a package has no provenance statement to download (decision 279): each a 404. */
export const STATEMENT_ERR = {
  notGenerated: 'This package has not been generated yet, so it has no provenance statement',
  unsigned: 'This package is not signed: only signed packages carry a provenance statement',
  older:
    'This package was signed before provenance statements were introduced, so it has none; it verifies as before with npm run verify',
};

/** The signed provenance statement of a generated, signed package (readers: whoever may download it). */
export async function provenanceStatementOf(core: PackageCore, id: string): Promise<DsseEnvelope> {
  const p = await core.mustGet(id);
  if (!p.artefact) throw new NotFoundError(STATEMENT_ERR.notGenerated);
  if (!p.artefact.signed) throw new NotFoundError(STATEMENT_ERR.unsigned);
  const envelope = await core.d.artefacts().statement(p.artefact);
  if (!envelope) throw new NotFoundError(STATEMENT_ERR.older);
  return envelope;
}
