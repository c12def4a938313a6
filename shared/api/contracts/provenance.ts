import * as z from 'zod';
import {
  type BuildProvenance,
  type ProvenanceRecord,
  SBOM_FORMATS,
  type SbomComponent,
  type SbomSummary,
} from '../../domain/model/provenance';

/**
 * Build provenance and SBOM of a resource: the contract shared by the intake (attach to a
 * resource, copy to the package as its pin, show to reviewers) and the generation worker (check the pin,
 * bind both into the signed provenance statement). Decisions 275–282.
 *
 * - A resource may carry both, attached once by its uploader (or a token acting for them).
 * - The SBOM file's bytes are stored in the resources bucket at `sbomKeyOf(resourceId)`; the resource and,
 *   from package creation on, the package record (`resourceFile.sbom`) keep its summary with SHA-256 and
 *   size: the pin, checked by generation like the payload's.
 * - Provenance is small: kept in the records themselves; `sha256` is over `provenanceText(p)`.
 */

/** Where a build came from (what the pipeline knows). */
export const buildProvenanceSchema = z.strictObject({
  repository: z.string().trim().min(1).max(512),
  commit: z.string().regex(/^[0-9a-fA-F]{7,64}$/, { error: 'provenance: commit must be 7–64 hex digits' }),
  buildId: z.string().trim().min(1).max(128),
  buildUrl: z.url({ protocol: /^https$/, error: 'provenance: buildUrl must be an https URL' }).max(2048),
  builder: z.string().trim().min(1).max(256),
});
// the model lives in the domain; the API's contracts name it from here as before
export * from '../../domain/model/provenance';

// ── zod schemas of the records (the SPA parses package and resource JSON text with them: records.ts) ──
const sbomComponentSchema = z.object({
  name: z.string(),
  version: z.string().optional(),
  purl: z.string().optional(),
});

export const provenanceRecordSchema = z.object({
  repository: z.string(),
  commit: z.string(),
  buildId: z.string(),
  buildUrl: z.string(),
  builder: z.string(),
  sha256: z.string(),
});

export const sbomSummarySchema = z.object({
  format: z.enum(SBOM_FORMATS),
  specVersion: z.string(),
  componentCount: z.number(),
  topComponents: z.array(sbomComponentSchema),
  fileName: z.string(),
  sizeBytes: z.number(),
  sha256: z.string(),
  subject: sbomComponentSchema.optional(),
});

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <_T extends true>() => undefined;
same<Same<z.output<typeof buildProvenanceSchema>, BuildProvenance>>();
same<Same<z.output<typeof sbomComponentSchema>, SbomComponent>>();
same<Same<z.output<typeof provenanceRecordSchema>, ProvenanceRecord>>();
same<Same<z.output<typeof sbomSummarySchema>, SbomSummary>>();
