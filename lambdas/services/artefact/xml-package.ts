import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import { isHighS } from '../../../shared/domain/ecdsa-low-s';
import { encodeHeader } from '../../../shared/domain/header/header-codec';
import type { Header } from '../../../shared/domain/header/header-schema';
import { PACKAGE_TYPE_CODES } from '../../../shared/domain/header/header-template';
import { SIGNATURE_ALGORITHM, type Signer } from '../../ports/signer';
import { Base64BufferEncoder } from './base64-stream';
import {
  APPROVAL_MEANING,
  isSignedType,
  MANIFEST_FORMAT,
  type ManifestDcc,
  type ManifestPackage,
  type PackageManifest,
  type PersonRecord,
  renderHead,
  renderTail,
  SIGNATURE_MEANING,
  toHex,
} from './xml-format';

/**
 * Builds the XML package (DESIGN §3) as a stream. The payload is read exactly once: each chunk is hashed
 * and base64-encoded as it passes, so a 50 MB resource never sits in memory, let alone twice. The manifest
 * (the signed data) needs the payload digest, so it and the signature come after the payload.
 */

export interface XmlPackageInput {
  package: Omit<ManifestPackage, 'generatedAt'>;
  /** when the artefact is generated (ISO 8601, UTC), from the Clock port */
  generatedAt: string;
  /** the stored header, computed (`computeFields`): its sizes and CRC must be current */
  header: Header;
  dcc: ManifestDcc;
  /** every approval, in the order given; `meaning` defaults to APPROVAL_MEANING */
  approvals: Array<{ approver: PersonRecord; approvedAt: string; meaning?: string }>;
  /** the resource file, read once (an S3 GetObject body, a file stream, any async iterable of bytes) */
  payload: {
    fileName: string;
    bytes: AsyncIterable<Uint8Array>;
    /** digest recorded at upload; when given, a payload that hashes differently fails the build */
    expectedSha256?: string;
    /** told the payload bytes read so far, after each chunk (the generation's progress, decision 160) */
    onProgress?: (bytesDone: number) => void;
  };
  /**
   * the model metadata file (the patch configuration), small enough to hold in memory. `expected` is its
   * size and SHA-256 as pinned for review (decision 190): bytes that differ, or no pin at all (null), fail
   * the build before a byte is written or signed; undefined skips the check (tools, tests).
   */
  patchConfig?: { fileName: string; bytes: Uint8Array; expected?: MetadataPin | null };
  /** required for *_SIGNED packages, refused for the others */
  signing?: { signer: Signer; signedBy: PersonRecord; signedAt: string; meaning?: string };
}

/** A model metadata file's size and SHA-256 as recorded for review (decision 190). */
export interface MetadataPin {
  sizeBytes: number;
  sha256: string;
}

/** Why a metadata file is refused at generation (decision 190). */
export const METADATA_PIN_ERR = {
  notPinned: (fileName: string) =>
    `The metadata file ${fileName} was not pinned when this package was reviewed (the package was created before metadata digests were recorded); create the package again from its resource`,
  differs: (fileName: string, got: MetadataPin, pinned: MetadataPin) =>
    `The metadata file ${fileName} is not the one reviewed: it is ${got.sizeBytes} bytes with SHA-256 ${got.sha256}, not ${pinned.sizeBytes} bytes with SHA-256 ${pinned.sha256} as recorded at upload`,
};

/** Refuses a metadata file that is not the one pinned for review; nothing is built or signed. */
function checkMetadataPin(config: NonNullable<XmlPackageInput['patchConfig']>): void {
  if (config.expected === undefined) return;
  if (config.expected === null) throw new Error(METADATA_PIN_ERR.notPinned(config.fileName));
  const got = { sizeBytes: config.bytes.length, sha256: sha256Hex(config.bytes) };
  if (got.sizeBytes !== config.expected.sizeBytes || got.sha256 !== config.expected.sha256.toLowerCase())
    throw new Error(METADATA_PIN_ERR.differs(config.fileName, got, config.expected));
}

export interface XmlPackageResult {
  manifest: PackageManifest;
  /** the exact bytes that were signed (or would be, for an unsigned package) */
  manifestBytes: Uint8Array;
  manifestSha256: string;
  /** DER signature, base64; absent for unsigned packages */
  signature?: string;
  keyId?: string;
  /** bytes of XML produced */
  xmlSize: number;
}

export interface XmlPackageBuild {
  /**
   * The XML document, pulled chunk by chunk: nothing is read or built ahead of the reader. Each chunk is
   * lent: it holds its bytes until the next one is asked for, then the builder writes into it again (one
   * output Buffer for the whole payload, decision 329). A reader that keeps chunks copies them. It throws
   * (and ends) if the payload does not match the header or the signer fails.
   */
  stream: AsyncIterable<Buffer>;
  /** settles once the stream has been read to the end; rejects with the stream's error */
  result: Promise<XmlPackageResult>;
}

/** The payload's base64 is lent to the reader in one Buffer of this size, refilled each time (decision 329). */
const OUT_CHUNK = 256 * 1024;

/**
 * The signer's public key, parsed once per PEM text: parsing and exporting it took ~0.8 ms of every signed
 * package (a third of its fixed cost). Keyed by the PEM the signer gives for this build, so a rotated key
 * is parsed anew; a handful of keys at most, never evicted.
 */
const publicKeys = new Map<string, { key: KeyObject; der: Buffer }>();
function parsedPublicKey(pem: string): { key: KeyObject; der: Buffer } {
  let k = publicKeys.get(pem);
  if (!k) {
    const key = createPublicKey(pem);
    k = { key, der: key.export({ type: 'spki', format: 'der' }) };
    if (publicKeys.size < 16) publicKeys.set(pem, k);
  }
  return k;
}

const sha256Hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const hex32 = (n: number) => `0x${n.toString(16).toUpperCase().padStart(8, '0')}`;

const personOf = (x: PersonRecord): PersonRecord => ({
  id: x.id,
  name: x.name,
  email: x.email,
  role: x.role,
});

function fixedValue(header: Header, computed: string): number | undefined {
  for (const f of header.fields)
    if (f.type === 'fixed' && f.storage !== 'bytes' && f.computed === computed) return f.value;
  return undefined;
}

/**
 * Checks the inputs and returns the XML stream with a promise of its summary. Throws at once, before any
 * byte is produced, when the inputs disagree: a stale header, a type the header does not carry, a signed
 * type without a signer (or the reverse), a patch config whose size the header does not state.
 */
export function buildXmlPackage(input: XmlPackageInput): XmlPackageBuild {
  if (input.patchConfig) checkMetadataPin(input.patchConfig);
  const headerBytes = encodeHeader(input.header);
  const type = input.package.type;
  const typeCode = fixedValue(input.header, 'packageType');
  if (typeCode !== PACKAGE_TYPE_CODES[type])
    throw new Error(
      `The header's Type is ${typeCode}, but a ${type} package has type ${PACKAGE_TYPE_CODES[type]}`,
    );
  if (isSignedType(type) !== Boolean(input.signing))
    throw new Error(
      isSignedType(type)
        ? `A ${type} package needs a signer`
        : `A ${type} package is not signed; no signer expected`,
    );
  const configSize = input.patchConfig?.bytes.length ?? 0;
  const headerConfigSize = fixedValue(input.header, 'patchConfigSize') ?? 0;
  if (headerConfigSize !== configSize)
    throw new Error(
      `The header's Patch Config Size is ${headerConfigSize}, but the patch config is ${configSize} bytes`,
    );

  const p = input.package;
  const headPart = {
    // Built key by key: the manifest holds exactly these fields in this order, whatever else the caller's objects carry.
    package: {
      id: p.id,
      name: p.name,
      type: p.type,
      stage: p.stage,
      resourceName: p.resourceName,
      resourceType: p.resourceType,
      note: p.note,
      initiator: personOf(p.initiator),
      createdAt: p.createdAt,
      generatedAt: input.generatedAt,
    },
    dcc: {
      id: input.dcc.id,
      deviceId: input.dcc.deviceId,
      telemetryType: input.dcc.telemetryType,
      deviceLimit: input.dcc.deviceLimit,
      messageLimit: input.dcc.messageLimit,
    },
    approvals: input.approvals.map((a) => ({
      approver: personOf(a.approver),
      approvedAt: a.approvedAt,
      meaning: a.meaning ?? APPROVAL_MEANING,
    })),
    header: {
      size: headerBytes.length,
      crc32: hex32(
        new DataView(headerBytes.buffer, headerBytes.byteOffset).getUint32(headerBytes.length - 4, true),
      ),
      sha256: sha256Hex(headerBytes),
    },
    patchConfig: input.patchConfig
      ? { fileName: input.patchConfig.fileName, size: configSize, sha256: sha256Hex(input.patchConfig.bytes) }
      : null,
  };
  const head = renderHead({
    manifest: { ...headPart, payload: { fileName: input.payload.fileName } },
    header: input.header,
    headerBytes,
    patchConfigBytes: input.patchConfig?.bytes,
  });
  const expectedDataSize = fixedValue(input.header, 'patchDataSize');

  let settle!: { resolve: (r: XmlPackageResult) => void; reject: (e: unknown) => void };
  const result = new Promise<XmlPackageResult>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // the caller may only read the stream; a rejection it never awaits must not crash the process
  result.catch(() => undefined);

  async function* generate(): AsyncGenerator<Buffer> {
    // Fetch the public key first: a misconfigured signer fails before 50 MB are read, not after.
    const publicPem = input.signing ? await input.signing.signer.publicKeyPem() : undefined;
    let xmlSize = 0;
    const emit = (s: string) => {
      const b = Buffer.from(s, 'utf8');
      xmlSize += b.length;
      return b;
    };
    yield emit(head);

    const hash = createHash('sha256');
    const encoder = new Base64BufferEncoder(OUT_CHUNK);
    let size = 0;
    for await (const chunk of input.payload.bytes) {
      if (!(chunk instanceof Uint8Array))
        throw new Error('The payload must be a stream of bytes, not of strings');
      hash.update(chunk);
      size += chunk.length;
      input.payload.onProgress?.(size);
      for (const b of encoder.push(chunk)) {
        xmlSize += b.length;
        yield b;
      }
    }
    const payloadSha256 = hash.digest('hex');
    if (expectedDataSize !== undefined && size !== expectedDataSize)
      throw new Error(
        `The payload is ${size} bytes, but the header's Patch Data Size is ${expectedDataSize}`,
      );
    if (input.payload.expectedSha256 && input.payload.expectedSha256.toLowerCase() !== payloadSha256)
      throw new Error(
        `The payload's SHA-256 is ${payloadSha256}, not ${input.payload.expectedSha256} as recorded at upload`,
      );
    for (const b of encoder.end()) {
      xmlSize += b.length;
      yield b;
    }

    const manifest: PackageManifest = {
      format: MANIFEST_FORMAT,
      package: headPart.package,
      dcc: headPart.dcc,
      approvals: headPart.approvals,
      header: headPart.header,
      patchConfig: headPart.patchConfig,
      payload: { fileName: input.payload.fileName, size, sha256: payloadSha256 },
      signature: input.signing
        ? {
            algorithm: SIGNATURE_ALGORITHM,
            keyId: input.signing.signer.keyId,
            signedBy: personOf(input.signing.signedBy),
            signedAt: input.signing.signedAt,
            meaning: input.signing.meaning ?? SIGNATURE_MEANING,
          }
        : null,
    };
    const manifestBytes = new TextEncoder().encode(JSON.stringify(manifest));
    const digest = createHash('sha256').update(manifestBytes).digest();
    let signature: Uint8Array | undefined;
    let publicKeyDer: Uint8Array | undefined;
    if (input.signing && publicPem) {
      signature = await input.signing.signer.sign(digest);
      const publicKey = parsedPublicKey(publicPem);
      // A signature that does not verify (wrong key id, a faulty adapter) must never reach a device.
      if (!verify('sha256', manifestBytes, { key: publicKey.key, dsaEncoding: 'der' }, signature))
        throw new Error(
          `The signature from key ${input.signing.signer.keyId} does not verify with its public key`,
        );
      // the format accepts low-S signatures only (verifiers refuse the high-S twin): a signer must normalise
      if (isHighS(signature))
        throw new Error(
          `The signature from key ${input.signing.signer.keyId} is high-S; signers must give low-S`,
        );
      publicKeyDer = publicKey.der;
    }
    const manifestSha256 = toHex(digest);
    yield emit(renderTail({ manifest, manifestBytes, manifestSha256, signature, publicKeyDer }));
    settle.resolve({
      manifest,
      manifestBytes,
      manifestSha256,
      ...(signature
        ? { signature: Buffer.from(signature).toString('base64'), keyId: manifest.signature?.keyId }
        : {}),
      xmlSize,
    });
  }

  // No Readable around the generator: it would read ahead of its reader, and a lent chunk must not be
  // written again before the reader is done with it. Pulling is the backpressure.
  async function* stream(): AsyncGenerator<Buffer> {
    try {
      yield* generate();
    } catch (e) {
      settle.reject(e);
      throw e;
    } finally {
      // a reader that stops early ends the generator here; without this the result would never settle
      settle.reject(new Error('The XML stream was closed before its end'));
    }
  }
  return { stream: stream(), result };
}
