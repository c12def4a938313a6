import type { ProvenanceFields } from '@shared/api/contracts/provenance';

/**
 * Mock mode only: one sample package pins a build provenance and SBOM, so the review pages'
 * "Build provenance" card shows them, and the SBOM route answers these bytes (sample-data.test.ts checks
 * both SHA-256). Not seeded into the component tests' services, whose generation checks the SBOM file.
 */
const [subject, ...components] = [
  'ventilator-ctrl 1.7.2',
  'freertos-kernel 10.6.2',
  'mbedtls 3.6.0',
  'zlib 1.3.1',
]
  .map((c) => c.split(' '))
  .map(([name, version]) => ({ name: name!, version }));
const sbom = { bomFormat: 'CycloneDX', specVersion: '1.5', metadata: { component: subject }, components };
export const SAMPLE_SBOM = JSON.stringify(sbom);

const repository = 'https://git.example.com/fw/ventilator-ctrl';
export const BUILD_PROVENANCE = {
  packageId: 'pk-sign-rel',
  pin: {
    provenance: {
      repository,
      commit: '4f2a9c1e7b3d5a8f0c6e2b1d9a7f3c5e8b0d2a4f',
      buildId: '1742',
      buildUrl: 'https://ci.example.com/fw/ventilator-ctrl/builds/1742',
      builder: 'GitLab CI fw-builder-02',
      sha256: 'd1e83e96ea65c4317d4dbbc91bb6f68b9fa6b3f296d4d14f06226b53f525781d',
    },
    sbom: {
      format: 'CycloneDX',
      specVersion: '1.5',
      componentCount: 3,
      topComponents: components,
      subject,
      fileName: 'ventilator-ctrl-1.7.2.cdx.json',
      sizeBytes: SAMPLE_SBOM.length,
      sha256: '7e11f4db012e772cdd4c719cd066c76010c20892b29290982328cd4355df710c',
    },
  } satisfies ProvenanceFields,
  /**
   * a statement file in its one form (a DSSE envelope on one line, then one LF, as the endpoint sends
   * it); payload and signature are stand-ins
   */
  statement: `${JSON.stringify({
    payloadType: 'application/vnd.in-toto+json',
    payload: btoa('{"_type":"https://in-toto.io/Statement/v1"}'),
    signatures: [{ keyid: 'sample-key', sig: btoa('not a real signature') }],
  })}\n`,
};
