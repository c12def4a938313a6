import * as z from 'zod';
import { PROVENANCE_ERR } from '../../domain/provenance-texts';
import { sbomFileNameOk } from '../../domain/sbom';
import { buildProvenanceSchema } from './provenance';

/**
 * Body of PUT /resources/{id}/provenance (decision 275): the build provenance, the SBOM, or
 * both. The SBOM's content is the document itself or its JSON text (a string: stored byte for byte, so
 * the file a pipeline sent and the one reviewers download hash the same); the service checks it.
 */
export const attachProvenanceSchema = z
  .strictObject({
    provenance: buildProvenanceSchema.optional(),
    sbom: z
      .strictObject({
        fileName: z.string().refine(sbomFileNameOk, { error: PROVENANCE_ERR.sbomFileName }),
        content: z.unknown().meta({
          description: 'the SBOM: a CycloneDX or SPDX JSON document, or its JSON text as a string',
        }),
      })
      .optional(),
  })
  .refine((b) => b.provenance !== undefined || b.sbom !== undefined, {
    error: PROVENANCE_ERR.nothingToAttach,
  });
export type AttachProvenance = z.infer<typeof attachProvenanceSchema>;
