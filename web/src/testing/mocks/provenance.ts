import type { ProvenanceFields } from '@shared/api/contracts/provenance';

/**
 * Mock mode only (issue 27): one sample package pins a build provenance and SBOM, so the review pages'
 * "Build provenance" card shows them; the SBOM route answers these exact bytes (their SHA-256 is the pin's,
 * sample-data.test.ts checks it). Not seeded into the component tests' services, whose generation would
 * look for the SBOM file in storage.
 */
const component = (name: string, version: string) => ({ name, version });
const components = [
  component('freertos-kernel', '10.6.2'),
  component('mbedtls', '3.6.0'),
  component('zlib', '1.3.1'),
];
const subject = component('ventilator-ctrl', '1.7.2');
export const SAMPLE_SBOM = JSON.stringify({
  bomFormat: 'CycloneDX',
  specVersion: '1.5',
  metadata: { component: subject },
  components,
});

export const BUILD_PROVENANCE = {
  packageId: 'pk-sign-rel',
  pin: {
    provenance: {
      ...{ repository: 'https://git.example.com/fw/ventilator-ctrl', buildId: '1742' },
      commit: '4f2a9c1e7b3d5a8f0c6e2b1d9a7f3c5e8b0d2a4f',
      ...{
        buildUrl: 'https://ci.example.com/fw/ventilator-ctrl/builds/1742',
        builder: 'GitLab CI runner fw-builder-02',
      },
      sha256: '2f2e6df165fc77c59196f2edf109f8ff77f3683c7ec339221328e5124309cc1e',
    },
    sbom: {
      ...{
        format: 'CycloneDX',
        specVersion: '1.5',
        componentCount: components.length,
        topComponents: components,
      },
      ...{ fileName: 'ventilator-ctrl-1.7.2.cdx.json', sizeBytes: SAMPLE_SBOM.length, subject },
      sha256: '7e11f4db012e772cdd4c719cd066c76010c20892b29290982328cd4355df710c',
    },
  } satisfies ProvenanceFields,
  /** a DSSE envelope in the statement's shape; its signature is a stand-in */
  statement: {
    payloadType: 'application/vnd.in-toto+json',
    payload: btoa(
      JSON.stringify({ _type: 'https://in-toto.io/Statement/v1', subject: [{ name: 'sample.xml' }] }),
    ),
    signatures: [{ keyid: 'sample-key', sig: btoa('not a real signature') }],
  },
};
