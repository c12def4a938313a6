import * as z from 'zod';
import { answer } from '../contracts/responses';
import type { PROVENANCE_STATEMENT_ROUTES } from './provenance-statement';

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
