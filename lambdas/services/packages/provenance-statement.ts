import { NotFoundError } from '../../../shared/domain/errors';
import { STATEMENT_ERR } from '../../../shared/domain/provenance-texts';
import type { PackageCore } from './package-core';
import { servedStatement } from './stored-artefact';

/**
 * The signed provenance statement of a generated, signed package (readers: whoever may download it): the
 * stored file's text, byte for byte, final LF included (docs/package-format.md §11).
 */
export async function provenanceStatementOf(core: PackageCore, id: string): Promise<string> {
  const p = await core.mustGet(id);
  if (!p.artefact) throw new NotFoundError(STATEMENT_ERR.notGenerated);
  if (!p.artefact.signed) throw new NotFoundError(STATEMENT_ERR.unsigned);
  // refused (409) when the stored statement is not the one signed (decision 302)
  const text = await servedStatement(core, p);
  if (!text) throw new NotFoundError(STATEMENT_ERR.older);
  return text;
}
