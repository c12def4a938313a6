import { packageIdParamSchema } from '../contracts/packages';
import type { PROVENANCE_STATEMENT_ROUTES } from './provenance-statement';
import type { RouteRequest } from './types';

/** Requests of the provenance statement row (issue 27). */
export const PROVENANCE_STATEMENT_CONTRACT = {
  packageProvenanceStatement: { params: packageIdParamSchema },
} as const satisfies { [Id in (typeof PROVENANCE_STATEMENT_ROUTES)[number]['id']]: RouteRequest };
