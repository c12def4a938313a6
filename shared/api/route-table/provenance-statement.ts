import * as z from 'zod';
import { packageIdParamSchema } from '../contracts/packages';
import { answer } from '../contracts/responses';
import { PKG_READ } from './groups';
import type { Route, RouteRequest } from './types';

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

/** Requests of the provenance statement row (issue 27). */
export const PROVENANCE_STATEMENT_CONTRACT = {
  packageProvenanceStatement: { params: packageIdParamSchema },
} as const satisfies { [Id in (typeof PROVENANCE_STATEMENT_ROUTES)[number]['id']]: RouteRequest };

/** Answers of the provenance statement row (issue 27): the DSSE envelope itself, to save as statement.json. */
export const PROVENANCE_STATEMENT_RESPONSES = {
  packageProvenanceStatement: answer({
    payloadType: z.string().meta({ description: "'application/vnd.in-toto+json'" }),
    payload: z.string().meta({ description: 'the in-toto statement (JSON), base64' }),
    signatures: z.array(
      z.object({
        keyid: z.string(),
        sig: z.string().meta({
          description: 'ECDSA P-256 SHA-256 over PAE(payloadType, payload), DER, low-S, base64',
        }),
      }),
    ),
  }),
} as const satisfies { [Id in (typeof PROVENANCE_STATEMENT_ROUTES)[number]['id']]: z.ZodType };
