import { SBOM_MAX_BYTES } from './model/provenance';

/**
 * The texts of attaching build provenance and an SBOM to a resource (decisions 275–276), word
 * for word: the service answers with them and the tests assert them. Every refusal names its field.
 */
export const PROVENANCE_ERR = {
  nothingToAttach: 'Give provenance, sbom or both',
  notUploader: 'Only the uploader of the resource can attach its build provenance or SBOM',
  provenanceAttached: 'This resource already has its build provenance; it is recorded once and never changes',
  sbomAttached: 'This resource already has its SBOM; it is recorded once and never changes',
  sbomFileName: 'sbom.fileName: must be a file name ending in .json (at most 255 characters)',
  sbomNotJson: 'sbom.content: is not JSON',
  sbomNotObject: 'sbom.content: must be a JSON object, a CycloneDX or SPDX document',
  sbomTooBig: `sbom.content: is larger than ${SBOM_MAX_BYTES / (1024 * 1024)} MiB`,
  sbomUnknownFormat:
    'sbom.content: is neither CycloneDX JSON (bomFormat "CycloneDX") nor SPDX JSON (spdxVersion "SPDX-2.x")',
  bomFormat: 'sbom.content.bomFormat: must be "CycloneDX"',
  cycloneDxVersion: 'sbom.content.specVersion: CycloneDX 1.2 to 1.6 are accepted',
  spdxVersion: 'sbom.content.spdxVersion: SPDX-2.2 and SPDX-2.3 are accepted',
  listMissing: (field: string) => `sbom.content.${field}: must be a list of components`,
  componentName: (field: string, i: number) => `sbom.content.${field}[${i}].name: is required (text)`,
  /** GET /packages/{id}/sbom */
  noSbom: 'This package has no SBOM: none was attached to its resource before the package was created',
  sbomChanged:
    'The stored SBOM no longer matches the one this package pins (its SHA-256 differs); it is not sent',
} as const;

export const PROVENANCE_AUDIT = {
  provenance: (commit: string, repository: string) =>
    `records the build provenance of the resource (commit ${commit.slice(0, 12)} of ${repository})`,
  sbom: (format: string, count: number) =>
    `records the SBOM of the resource (${format}, ${count} component${count === 1 ? '' : 's'})`,
} as const;

/** Why a package has no provenance statement to download (decision 279): each a 404. */
export const STATEMENT_ERR = {
  notGenerated: 'This package has not been generated yet, so it has no provenance statement',
  unsigned: 'This package is not signed: only signed packages carry a provenance statement',
  older:
    'This package was signed before provenance statements were introduced, so it has none; it verifies as before with npm run verify',
} as const;
