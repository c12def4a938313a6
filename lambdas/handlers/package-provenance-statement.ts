import { packageServiceWithArtefacts } from '../composition-artefacts';
import { route } from '../routes/provenance';

/**
 * The package's signed provenance statement, the DSSE envelope file as stored, byte for byte: its one
 * compact line and its final LF (decision 279, docs/package-format.md §11), never a re-serialisation.
 */
export const handler = route('packageProvenanceStatement', async ({ params }) => ({
  body: await packageServiceWithArtefacts().provenanceStatement(params.id),
}));
