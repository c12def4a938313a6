/**
 * Build provenance and SBOM of a resource, as the domain knows them (decisions 275–282): a resource may
 * carry both, attached once by its uploader; from package creation on the package keeps them as its pin.
 * The API's zod schemas (shared/api/contracts/provenance.ts) are checked against these types.
 */

/** Where a build came from (what the pipeline knows). */
export interface BuildProvenance {
  repository: string;
  commit: string;
  buildId: string;
  buildUrl: string;
  builder: string;
}

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
