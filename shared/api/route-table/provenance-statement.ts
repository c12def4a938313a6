import { PKG_READ } from './groups';
import type { Route } from './types';

/**
 * The signed provenance statement of a package (issue 27, decision 279): read by whoever may download the
 * package (auditors included), written only by the generation worker.
 */
export const PROVENANCE_STATEMENT_ROUTES = [
  {
    id: 'packageProvenanceStatement',
    method: 'GET',
    path: '/packages/{id}/provenance-statement',
    access: 'signedIn',
    uses: { tables: PKG_READ, buckets: { artefacts: ['read'] } },
    summary:
      "The package's signed provenance statement: a DSSE envelope of an in-toto statement binding the manifest, " +
      'payload, build provenance and SBOM (signed packages; `npm run verify -- --statement` checks it)',
  },
] as const satisfies readonly Route[];
