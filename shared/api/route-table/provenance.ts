import * as z from 'zod';
import { packageIdParamSchema } from '../contracts/packages';
import { SBOM_MAX_BYTES } from '../contracts/provenance';
import { attachProvenanceSchema } from '../contracts/provenance-attach';
import { resourceIdParamSchema } from '../contracts/resources';
import { answer, jsonText } from '../contracts/responses';
import { PKG_READ, UPLOADERS } from './groups';
import { tokenCallable } from './token-use';
import type { Route, RouteRequest } from './types';

/**
 * Build provenance and SBOM (decisions 275–278): attached once to a resource by its uploader (or a
 * token of theirs), pinned on the packages made from it, read beside the package; and the signed provenance
 * statement the generation worker writes beside a signed package (decision 279).
 */
export const PROVENANCE_ROUTES = [
  {
    id: 'attachProvenance',
    method: 'PUT',
    path: '/resources/{id}/provenance',
    access: UPLOADERS,
    uses: tokenCallable({ tables: ['users', 'resources', 'audit'], buckets: { resources: ['write'] } }),
    memoryMb: 512,
    tokenScope: 'resources:upload',
    summary:
      "Attach a resource's build provenance (repository, commit, build id and URL, builder) and/or its SBOM " +
      '(CycloneDX or SPDX JSON), once each, by its uploader; packages created afterwards pin both',
  },
  {
    id: 'packageSbom',
    method: 'GET',
    path: '/packages/{id}/sbom',
    access: 'signedIn',
    uses: { tables: PKG_READ, buckets: { resources: ['read'] } },
    tokenScope: 'packages:draft',
    summary: "The SBOM file pinned on the package (the exact bytes whose SHA-256 the package's sbom records)",
  },
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

/** Requests of the provenance rows. */
export const PROVENANCE_CONTRACT = {
  // the SBOM travels in the JSON body: its limit, and room for the JSON escaping of a text and the provenance
  attachProvenance: {
    params: resourceIdParamSchema,
    body: attachProvenanceSchema,
    maxBodyBytes: SBOM_MAX_BYTES + 640 * 1024,
  },
  packageSbom: { params: packageIdParamSchema, produces: 'application/json' },
  // the stored file as it is (one line and one LF): a JSON answer would be a re-serialisation without the LF
  packageProvenanceStatement: { params: packageIdParamSchema, produces: 'application/json' },
} as const satisfies { [Id in (typeof PROVENANCE_ROUTES)[number]['id']]: RouteRequest };

/** Answers of the provenance rows. */
export const PROVENANCE_RESPONSES = {
  attachProvenance: answer({ resource: jsonText('the resource with its provenance and SBOM (Resource)') }),
  packageSbom: z.string().meta({
    description:
      'the SBOM file, byte for byte as stored (CycloneDX or SPDX JSON); its SHA-256 is the package resourceFile.sbom.sha256',
  }),
  packageProvenanceStatement: z.string().meta({
    description:
      'the DSSE envelope file byte for byte: {"payloadType":"application/vnd.in-toto+json","payload":<the in-toto statement, base64>,"signatures":[{"keyid":…,"sig":<ECDSA P-256 SHA-256 over PAE, DER, low-S, base64>}]} on one line, then one LF',
  }),
} as const satisfies { [Id in (typeof PROVENANCE_ROUTES)[number]['id']]: z.ZodType };
