import { createHash } from 'node:crypto';
import {
  type ProvenanceRecord,
  provenanceText,
  type SbomSummary,
} from '../../../shared/api/contracts/provenance';
import { buildStatement, envelopeText, signStatement } from '../../services/artefact/provenance-statement';
import type { PackageManifest } from '../../services/artefact/xml-format';
import { examplePackage, exampleSigner } from './package-format.example';

/**
 * The worked example of docs/package-format.md "Provenance statement (sidecar)": the statement of the §8
 * example package, with a build provenance and a small CycloneDX SBOM, signed with the RFC 6979 test key
 * (deterministic: the same bytes on every run). Test code only.
 */

const sha256Hex = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

/** A small valid CycloneDX 1.5 SBOM (compact JSON). */
export const EXAMPLE_SBOM = Buffer.from(
  JSON.stringify({
    bomFormat: 'CycloneDX',
    specVersion: '1.5',
    version: 1,
    components: [
      {
        type: 'library',
        name: 'tflite-micro',
        version: '2.15.0',
        purl: 'pkg:github/tensorflow/tflite-micro@2.15.0',
      },
      { type: 'library', name: 'cmsis-nn', version: '6.0.0', purl: 'pkg:github/arm-software/cmsis-nn@6.0.0' },
    ],
  }),
);

const provenance = {
  repository: 'https://git.example.com/fw/apnea-detector',
  commit: '9fceb02d0ae598e95dc970b74767f19372d61af8',
  buildId: '1234',
  buildUrl: 'https://ci.example.com/fw/apnea-detector/builds/1234',
  builder: 'ci.example.com runner 7',
};
export const EXAMPLE_PROVENANCE: ProvenanceRecord = {
  ...provenance,
  sha256: sha256Hex(provenanceText(provenance)),
};

export const EXAMPLE_SBOM_SUMMARY: SbomSummary = {
  format: 'CycloneDX',
  specVersion: '1.5',
  componentCount: 2,
  topComponents: [
    { name: 'tflite-micro', version: '2.15.0', purl: 'pkg:github/tensorflow/tflite-micro@2.15.0' },
    { name: 'cmsis-nn', version: '6.0.0', purl: 'pkg:github/arm-software/cmsis-nn@6.0.0' },
  ],
  fileName: 'apnea-detector-3.1.cdx.json',
  sizeBytes: EXAMPLE_SBOM.length,
  sha256: sha256Hex(EXAMPLE_SBOM),
};

/** The manifest bytes of an XML package (the base64 text of its <manifest>). */
export function manifestBytesOf(xml: Buffer | string): Buffer {
  return Buffer.from(/<manifest[^>]*>([^<]*)</.exec(xml.toString())![1]!, 'base64');
}

/** The example package, its statement's envelope text (as stored and downloaded) and the statement bytes. */
export async function exampleStatement(): Promise<{ xml: Buffer; envelope: string; statement: Buffer }> {
  const xml = await examplePackage();
  const manifestBytes = manifestBytesOf(xml);
  const statement = buildStatement({
    manifest: JSON.parse(manifestBytes.toString('utf8')) as PackageManifest,
    manifestSha256: sha256Hex(manifestBytes),
    provenance: EXAMPLE_PROVENANCE,
    sbom: EXAMPLE_SBOM_SUMMARY,
  });
  const envelope = await signStatement(statement, exampleSigner());
  return { xml, envelope: envelopeText(envelope), statement: Buffer.from(envelope.payload, 'base64') };
}
