import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { PackageType } from '../../../shared/api/contracts/packages';
import { newPackageHeader } from '../../../shared/domain/header/header-rules';
import { FileSigner } from '../../adapters/local/file-signer';
import type { Signer } from '../../ports/signer';
import {
  buildXmlPackage,
  type XmlPackageInput,
  type XmlPackageResult,
} from '../../services/artefact/xml-package';

/** Test fixtures: sample inputs and a one-call way to build a package in memory. Not used by production code. */

export const person = (id: string, role: string) => ({
  id,
  name: `User ${id}`,
  email: `${id}@example.com`,
  role,
});

// One key directory per test file (vitest isolates modules per file), removed when the file's tests end.
const keyDir = mkdtempSync(join(tmpdir(), 'xml-pkg-key-'));
afterAll(() => rmSync(keyDir, { recursive: true, force: true }));
const sharedSigner = new FileSigner(join(keyDir, 'signing-key.pem'));

/** The local signer of this test file; its key is made on first use. */
export function testSigner(): FileSigner {
  return sharedSigner;
}

/** Yields `bytes` in chunks of `size`, like a file or S3 stream would. */
export async function* chunked(bytes: Uint8Array, size = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

export function samplePayload(size: number): Uint8Array {
  const b = new Uint8Array(size);
  for (let i = 0; i < size; i++) b[i] = (i * 31 + (i >> 8)) & 0xff;
  return b;
}

export interface SampleOptions {
  type?: PackageType;
  payload?: Uint8Array;
  patchConfig?: Uint8Array;
  signer?: Signer;
  note?: string;
}

/** Inputs of a typical package; signed types get the test signer. */
export function sampleInput(o: SampleOptions = {}): XmlPackageInput {
  const type = o.type ?? 'RELEASE_SIGNED';
  const payload = o.payload ?? samplePayload(10_000);
  const header = newPackageHeader({
    packageType: type,
    resourceSizeBytes: payload.length,
    metadataSizeBytes: o.patchConfig?.length ?? 0,
  });
  const signed = !type.endsWith('_UNSIGNED');
  return {
    package: {
      id: 'pkg-0001',
      name: 'Pump firmware 4.2',
      type,
      stage: type.startsWith('DEV') ? 'DEV' : 'RELEASE',
      resourceName: 'pump-fw-4.2.bin',
      resourceType: o.patchConfig ? 'MODEL' : 'PATCH',
      note: o.note ?? 'Fixes the occlusion alarm threshold',
      initiator: person('u-init', 'DESIGN_ENGINEER_DEV'),
      createdAt: '2026-03-01T09:00:00.000Z',
    },
    generatedAt: '2026-03-02T10:00:00.000Z',
    header,
    dcc: { id: 'dcc-1', deviceId: 'PUMP-7', telemetryType: 'TelA', deviceLimit: 4096, messageLimit: 64 },
    approvals: [
      { approver: person('u-tl', 'TECHNICAL_LEADER'), approvedAt: '2026-03-01T12:00:00.000Z' },
      { approver: person('u-re', 'RELIABILITY_ENGINEER'), approvedAt: '2026-03-01T13:00:00.000Z' },
    ],
    payload: { fileName: 'pump-fw-4.2.bin', bytes: chunked(payload) },
    ...(o.patchConfig ? { patchConfig: { fileName: 'metadata.json', bytes: o.patchConfig } } : {}),
    ...(signed
      ? {
          signing: {
            signer: o.signer ?? testSigner(),
            signedBy: person('u-rel', 'SW_FW_RELEASE_ENGINEER'),
            signedAt: '2026-03-02T10:00:00.000Z',
          },
        }
      : {}),
  };
}

/** Reads a whole stream into one Buffer (test sizes only). */
export async function collect(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

/** Builds a package into memory. */
export async function buildSample(o: SampleOptions = {}): Promise<{ xml: Buffer; result: XmlPackageResult }> {
  const build = buildXmlPackage(sampleInput(o));
  const xml = await collect(build.stream);
  return { xml, result: await build.result };
}
