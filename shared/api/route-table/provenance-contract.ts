import { packageIdParamSchema } from '../contracts/packages';
import { SBOM_MAX_BYTES } from '../contracts/provenance';
import { attachProvenanceSchema } from '../contracts/provenance-attach';
import { resourceIdParamSchema } from '../contracts/resources';
import type { PROVENANCE_ROUTES } from './provenance';
import type { RouteRequest } from './types';

/** Requests of the provenance rows (issue 27). */
export const PROVENANCE_CONTRACT = {
  // the SBOM travels in the JSON body: its limit, and room for the JSON escaping of a text and the provenance
  attachProvenance: {
    params: resourceIdParamSchema,
    body: attachProvenanceSchema,
    maxBodyBytes: SBOM_MAX_BYTES + 640 * 1024,
  },
  packageSbom: { params: packageIdParamSchema, produces: 'application/json' },
} as const satisfies { [Id in (typeof PROVENANCE_ROUTES)[number]['id']]: RouteRequest };
