import { createHash, createPublicKey } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import {
  computeFields,
  newPackageHeader,
  validateHeaderUpdate,
} from '../../../shared/domain/header/header-rules';
import { signDigestP256 } from '../../adapters/local/ecdsa-p256';
import type { Signer } from '../../ports/signer';
import { buildXmlPackage } from '../../services/artefact/xml-package';

/**
 * The worked example of docs/package-format.md §8, rebuilt from fixed inputs: a signed release package of
 * a model, signed with the published test key of RFC 6979 appendix A.2.5 (deterministic signatures, so
 * the bytes are the same on every run). Test code only: the key is public and signs nothing real.
 */

const person = (id: string, name: string, role: string) => ({
  id,
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
  role,
});

export const EXAMPLE_SECRET = Buffer.from(
  'c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721',
  'hex',
);

/**
 * A Signer holding a fixed secret (RFC 6979: deterministic signatures), with the local key id form of
 * docs/package-format.md §6. Example and test keys only: a secret in source code signs nothing real.
 */
export function fixedKeySigner(secret: Uint8Array): Signer {
  if (!p256.utils.isValidSecretKey(secret)) throw new Error('not a P-256 secret key');
  const pub = p256.getPublicKey(secret, false);
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: Buffer.from(pub.subarray(1, 33)).toString('base64url'),
      y: Buffer.from(pub.subarray(33)).toString('base64url'),
    },
    format: 'jwk',
  });
  const spki = key.export({ type: 'spki', format: 'der' });
  return {
    keyId: `local-p256-${createHash('sha256').update(spki).digest('hex').slice(0, 16)}`,
    sign: async (digest) => signDigestP256(secret, digest),
    publicKeyPem: async () => key.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** A Signer holding the RFC 6979 example key. */
export const exampleSigner = (): Signer => fixedKeySigner(EXAMPLE_SECRET);

export const EXAMPLE_MODEL = Buffer.concat([
  Buffer.from([0x1c, 0, 0, 0]),
  Buffer.from('TFL3'),
  Buffer.from('example model bytes!'),
]);
export const EXAMPLE_METADATA = Buffer.from('{"modelName":"apnea-detector","version":"3.1.0"}');

/** The example package's XML. */
export async function examplePackage(): Promise<Buffer> {
  const base = newPackageHeader({
    packageType: 'RELEASE_SIGNED',
    resourceSizeBytes: EXAMPLE_MODEL.length,
    metadataSizeBytes: EXAMPLE_METADATA.length,
  });
  const edited = validateHeaderUpdate(base, {
    fields: [
      { name: 'Package Id', value: 258 },
      { name: 'Device Model Id', value: { 'Model Id': 16, 'Sub Model Id': 2, 'Serial Number': 123456 } },
      { name: 'Patch Id', value: 'Patch 6' },
      { name: 'Update Operation Type', value: 'UPDATE' },
      { name: 'Header Destination', value: '0x08000000' },
      { name: 'Patch Config Destination', value: '0x0800F000' },
      { name: 'Patch Data Destination', value: '0x08010000' },
      {
        name: 'Patch Criteria Items',
        value: [{ Address: 0x1fff7a10, Mask: 0xffff, Value: 0x0410, Operator: 'EQUAL' }],
      },
    ],
  });
  if (!edited.ok) throw new Error(JSON.stringify(edited.errors));
  const header = computeFields(edited.header, {
    packageType: 'RELEASE_SIGNED',
    resourceSizeBytes: EXAMPLE_MODEL.length,
    metadataSizeBytes: EXAMPLE_METADATA.length,
  });
  const build = buildXmlPackage({
    package: {
      id: '3f1c2a9e-5b7d-4e21-9c0a-1d2e3f4a5b6c',
      name: 'Apnea model 3.1',
      type: 'RELEASE_SIGNED',
      stage: 'RELEASE',
      resourceName: 'apnea-detector-3.1',
      resourceType: 'MODEL',
      note: 'Retrained on the 2026 cohort.\nThreshold "0.82" & <lower> latency.',
      initiator: person('u-init', 'Ada Engineer', 'DESIGN_ENGINEER_DEV'),
      createdAt: '2026-03-01T09:00:00.000Z',
    },
    generatedAt: '2026-03-02T10:00:00.000Z',
    header,
    dcc: { id: 'dcc-1', deviceId: 'VENT-9', telemetryType: 'TelA', deviceLimit: 4096, messageLimit: 64 },
    approvals: [
      { approver: person('u-tl', 'Tim Lead', 'TECHNICAL_LEADER'), approvedAt: '2026-03-01T12:00:00.000Z' },
    ],
    payload: {
      fileName: 'apnea-detector-3.1.tflite',
      bytes: (async function* () {
        yield EXAMPLE_MODEL;
      })(),
    },
    patchConfig: { fileName: 'apnea-detector-3.1.json', bytes: EXAMPLE_METADATA },
    signing: {
      signer: exampleSigner(),
      signedBy: person('u-rel', 'Rel Engineer', 'SW_FW_RELEASE_ENGINEER'),
      signedAt: '2026-03-02T10:00:00.000Z',
    },
  });
  const parts: Buffer[] = [];
  for await (const c of build.stream as AsyncIterable<Uint8Array>) parts.push(Buffer.from(c));
  await build.result;
  return Buffer.concat(parts);
}
