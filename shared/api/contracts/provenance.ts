import * as z from 'zod';

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
export type BuildProvenance = z.infer<typeof buildProvenanceSchema>;

/** The one text whose SHA-256 pins a provenance record: these keys, in this order, JSON without spaces. */
export const provenanceText = (p: BuildProvenance): string =>
  JSON.stringify({
    repository: p.repository,
    commit: p.commit,
    buildId: p.buildId,
    buildUrl: p.buildUrl,
    builder: p.builder,
  });

/** Provenance as recorded on a resource and pinned on a package. */
export interface ProvenanceRecord extends BuildProvenance {
  /** SHA-256 (lower-case hex) of `provenanceText` */
  sha256: string;
}

export const SBOM_FORMATS = ['CycloneDX', 'SPDX'] as const;
export type SbomFormat = (typeof SBOM_FORMATS)[number];

/** One top-level component of an SBOM, as shown to reviewers. */
export interface SbomComponent {
  name: string;
  version?: string;
  purl?: string;
}

/** What the portal records of an SBOM it accepted (on the resource, and on the package as the pin). */
export interface SbomSummary {
  format: SbomFormat;
  /** e.g. '1.5' (CycloneDX) or 'SPDX-2.3' */
  specVersion: string;
  componentCount: number;
  /** at most SBOM_TOP_COMPONENTS, in the file's order */
  topComponents: SbomComponent[];
  fileName: string;
  sizeBytes: number;
  /** SHA-256 (lower-case hex) of the stored file's bytes */
  sha256: string;
  /** what the SBOM describes (CycloneDX metadata.component, SPDX the described package), when it says */
  subject?: SbomComponent;
}

export const SBOM_TOP_COMPONENTS = 10;
/** An SBOM is sent as JSON in the API body: at most this many bytes. */
export const SBOM_MAX_BYTES = 5 * 1024 * 1024;

/** The SBOM file's storage key in the resources bucket (never shown to users). */
export const sbomKeyOf = (resourceId: string): string => `sbom/${resourceId}.json`;

/** Fields a resource record and a package's `resourceFile` may carry. */
export interface ProvenanceFields {
  provenance?: ProvenanceRecord;
  sbom?: SbomSummary;
}

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
same<Same<z.output<typeof sbomComponentSchema>, SbomComponent>>();
same<Same<z.output<typeof provenanceRecordSchema>, ProvenanceRecord>>();
same<Same<z.output<typeof sbomSummarySchema>, SbomSummary>>();
