import { packageServiceWithArtefacts } from '../composition-artefacts';
import { route } from '../routes/provenance';

/** The package's signed provenance statement, the DSSE envelope as stored (decision 279). */
export const handler = route('packageProvenanceStatement', async ({ params }) => ({
  body: await packageServiceWithArtefacts().provenanceStatement(params.id),
}));
