import { createHash, createPublicKey } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import type { Signer } from '../../lambdas/ports/signer';
import {
  envelopeText,
  pae,
  STATEMENT_PAYLOAD_TYPE,
} from '../../lambdas/services/artefact/provenance-statement';
import {
  type PackageManifest,
  renderHead,
  renderTail,
  toBase64,
} from '../../lambdas/services/artefact/xml-format';
import { crc32 } from '../../shared/domain/header/crc32';
import { decodeHeader } from '../../shared/domain/header/header-codec';
import type { Header } from '../../shared/domain/header/header-schema';

/**
 * Tampering tools of the conformance corpus: a package taken apart into the parts its manifest binds, and
 * put together again the way the portal renders it (xml-format.ts), so a tampered vector differs from a
 * real one exactly where it means to; and the same for provenance statements.
 */

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const hex32 = (n: number) => `0x${n.toString(16).toUpperCase().padStart(8, '0')}`;

/** The base64 text of element `name` (the first one). */
export function blobOf(xml: string, name: string): string {
  const m = new RegExp(`<${name}[^>]*>([^<]*)</${name}>`).exec(xml);
  if (!m) throw new Error(`no <${name}> with content`);
  return m[1]!;
}

/** Replaces the base64 text of element `name` with `edit(decoded bytes)`, re-encoded. */
export function editBlob(xml: string, name: string, edit: (b: Buffer) => Buffer): string {
  return xml.replace(
    new RegExp(`(<${name}[^>]*>)([^<]*)(</${name}>)`),
    (_m, open: string, b64: string, close: string) =>
      `${open}${toBase64(edit(Buffer.from(b64, 'base64')))}${close}`,
  );
}

/** A package taken apart. */
export interface Parts {
  manifest: PackageManifest;
  headerBytes: Buffer;
  payload: Buffer;
  config?: Buffer;
  signature?: Buffer;
}

export function partsOf(xml: string): Parts {
  const has = (name: string) => new RegExp(`<${name} `).test(xml);
  return {
    manifest: JSON.parse(Buffer.from(blobOf(xml, 'manifest'), 'base64').toString('utf8')),
    headerBytes: Buffer.from(blobOf(xml, 'bytes'), 'base64'),
    payload: Buffer.from(has('payload') ? blobOf(xml, 'payload') : '', 'base64'),
    ...(has('patchConfig') ? { config: Buffer.from(blobOf(xml, 'patchConfig'), 'base64') } : {}),
    ...(has('signature') ? { signature: Buffer.from(blobOf(xml, 'signature'), 'base64') } : {}),
  };
}

/** The public key of a signer, SubjectPublicKeyInfo DER. */
export async function spkiOf(signer: Signer): Promise<Buffer> {
  return createPublicKey(await signer.publicKeyPem()).export({ type: 'spki', format: 'der' });
}

/** Header bytes with `edit` applied and the CRC recomputed (a consistent header that says something else). */
export function withCrc(headerBytes: Buffer, edit: (b: Buffer) => void): Buffer {
  const b = Buffer.from(headerBytes);
  edit(b);
  b.writeUInt32LE(crc32(b.subarray(0, b.length - 4)), b.length - 4);
  return b;
}

export interface ForgeOptions {
  /** edits the manifest object before it is written */
  manifest?: (m: PackageManifest) => void;
  /** edits the manifest's JSON text after it is written (forms other than the one of §5) */
  json?: (text: string) => string;
  /** who signs the manifest: a signer, or null for an unsigned package (no signature elements) */
  signer: Signer | null;
  /** keep the manifest's key id instead of the signer's */
  keepKeyId?: boolean;
  headerBytes?: Buffer;
  payload?: Buffer;
  /** the patch config bytes, or null for none */
  config?: Buffer | null;
  /** edits the DER signature after signing */
  signature?: (der: Buffer) => Buffer;
  /** the key written in <publicKey> instead of the signer's */
  publicKeyDer?: Buffer;
}

/**
 * The package with its parts changed as `o` says, its manifest updated to bind them (digests and sizes),
 * signed by `o.signer` and rendered as the portal renders a package: consistent except where `o` says.
 */
export async function forge(base: Parts, o: ForgeOptions): Promise<string> {
  const m = structuredClone(base.manifest) as PackageManifest;
  const headerBytes = o.headerBytes ?? base.headerBytes;
  const payload = o.payload ?? base.payload;
  const config = o.config === undefined ? base.config : (o.config ?? undefined);
  m.header = {
    size: headerBytes.length,
    crc32: hex32(headerBytes.readUInt32LE(headerBytes.length - 4)),
    sha256: sha(headerBytes),
  };
  m.payload = { ...m.payload, size: payload.length, sha256: sha(payload) };
  if (m.patchConfig && config) m.patchConfig = { ...m.patchConfig, size: config.length, sha256: sha(config) };
  if (o.signer && m.signature && !o.keepKeyId) m.signature.keyId = o.signer.keyId;
  o.manifest?.(m);
  let text = JSON.stringify(m);
  if (o.json) text = o.json(text);
  const manifestBytes = Buffer.from(text, 'utf8');
  let signature: Buffer | undefined;
  let publicKeyDer: Buffer | undefined;
  if (o.signer) {
    signature = Buffer.from(await o.signer.sign(createHash('sha256').update(manifestBytes).digest()));
    if (o.signature) signature = o.signature(signature);
    publicKeyDer = o.publicKeyDer ?? (await spkiOf(o.signer));
  }
  // the readable copy is rendered from what the bytes say (as the verifier re-renders it)
  const readable = JSON.parse(text.replace(/^\uFEFF/, '')) as PackageManifest;
  let header: Header;
  try {
    header = decodeHeader(headerBytes);
  } catch {
    // a header the codec refuses: its rows are the base's (a device refuses it before reading them)
    header = decodeHeader(base.headerBytes);
  }
  return (
    renderHead({ manifest: readable, header, headerBytes, patchConfigBytes: config }) +
    toBase64(payload) +
    renderTail({
      manifest: readable,
      manifestBytes,
      manifestSha256: sha(manifestBytes),
      signature,
      publicKeyDer,
    })
  );
}

/** The high-S twin (r, n − s) of a DER signature. */
export function highS(der: Buffer): Buffer {
  const s = p256.Signature.fromBytes(der, 'der');
  return Buffer.from(new p256.Signature(s.r, p256.Point.CURVE().n - s.s).toBytes('der'));
}

/** The statement file with its statement JSON edited and signed again by `signer`, keyid `keyid`. */
export async function forgeStatement(
  envelope: string,
  o: { edit?: (statement: string) => string; signer: Signer; keyid?: string; highS?: boolean },
): Promise<string> {
  const e = JSON.parse(envelope) as { payload: string; signatures: { keyid: string }[] };
  const statement = Buffer.from(e.payload, 'base64').toString('utf8');
  const body = Buffer.from(o.edit ? o.edit(statement) : statement, 'utf8');
  let sig: Buffer = Buffer.from(
    await o.signer.sign(createHash('sha256').update(pae(STATEMENT_PAYLOAD_TYPE, body)).digest()),
  );
  if (o.highS) sig = highS(sig);
  return envelopeText({
    payloadType: STATEMENT_PAYLOAD_TYPE,
    payload: body.toString('base64'),
    signatures: [{ keyid: o.keyid ?? e.signatures[0]!.keyid, sig: sig.toString('base64') }],
  });
}
