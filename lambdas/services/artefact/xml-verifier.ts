import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import { closeSync, createReadStream, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { PACKAGE_TYPES } from '../../../shared/api/contracts/packages';
import { RESOURCE_TYPES, STAGES } from '../../../shared/api/contracts/resources';
import { decodeHeader } from '../../../shared/domain/header/header-codec';
import type { Header } from '../../../shared/domain/header/header-schema';
import { PACKAGE_TYPE_CODES } from '../../../shared/domain/header/header-template';
import { SIGNATURE_ALGORITHM } from '../../ports/signer';
import { Base64Decoder, decodeBase64 } from './base64-stream';
import { isHighS } from './low-s';
import {
  FORMAT_VERSION,
  isSignedType,
  MANIFEST_FORMAT,
  type PackageManifest,
  renderHead,
  renderTail,
  XML_NAMESPACE,
} from './xml-format';
import { readXml, type XmlElement } from './xml-reader';

/**
 * Checks an XML package offline (DESIGN §3, `npm run verify`): structure, header CRC and layout, payload
 * and patch-config digests, that every readable part matches the signed manifest, and the signature,
 * with the key embedded in the file and, when given, a trusted key. Reads the file once, streaming the
 * payload; never throws for a bad file, it reports.
 */

export interface VerifyOptions {
  /**
   * PEM public key the package must be signed with (the portal's, from GET /dev/signing-key). Given, the
   * verifier applies the device policy of docs/package-format.md: a package not signed by this key (an
   * unsigned one included, whatever its stage) fails.
   */
  trustedKeyPem?: string;
  /** a directory to write the parts to: header.bin, payload.bin, patch-config.bin, data.bin (the signed bytes), sig.der, key.pem */
  extractDir?: string;
}

export interface VerifyCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export interface VerifyReport {
  /** true when every check passed */
  valid: boolean;
  checks: VerifyCheck[];
  /** things that are not failures but limit what was proven */
  warnings: string[];
  manifest?: PackageManifest;
  /** extracted part → file path */
  extracted: Record<string, string>;
}

const person = z.strictObject({ id: z.string(), name: z.string(), email: z.string(), role: z.string() });
const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const size = z.number().int().min(0);
const manifestSchema = z.strictObject({
  format: z.literal(MANIFEST_FORMAT),
  package: z.strictObject({
    id: z.string(),
    name: z.string(),
    type: z.enum(PACKAGE_TYPES),
    stage: z.enum(STAGES),
    resourceName: z.string(),
    resourceType: z.enum(RESOURCE_TYPES),
    note: z.string(),
    initiator: person,
    createdAt: z.string(),
    generatedAt: z.string(),
  }),
  dcc: z.strictObject({
    id: z.string(),
    deviceId: z.string(),
    telemetryType: z.string(),
    deviceLimit: size,
    messageLimit: size,
  }),
  approvals: z.array(z.strictObject({ approver: person, approvedAt: z.string(), meaning: z.string() })),
  header: z.strictObject({ size, crc32: z.string().regex(/^0x[0-9A-F]{8}$/), sha256: hex64 }),
  patchConfig: z.strictObject({ fileName: z.string(), size, sha256: hex64 }).nullable(),
  payload: z.strictObject({ fileName: z.string(), size, sha256: hex64 }),
  signature: z
    .strictObject({
      algorithm: z.literal(SIGNATURE_ALGORITHM),
      keyId: z.string(),
      signedBy: person,
      signedAt: z.string(),
      meaning: z.string(),
    })
    .nullable(),
});

const TOP_LEVEL =
  /^metadata,dcc,approvals,header,(patchConfig,)?payload,payloadDigest,manifest(,signature,publicKey)?$/;

const hex32 = (n: number) => `0x${n.toString(16).toUpperCase().padStart(8, '0')}`;
const sha256Hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The first place two element trees differ, as a readable path and description; undefined when equal. */
function firstDifference(
  actual: XmlElement,
  expected: XmlElement,
  path: string,
  skipText: string,
): string | undefined {
  const here = `${path}/${expected.name}`;
  if (actual.name !== expected.name) return `${path}: <${actual.name}> where <${expected.name}> was signed`;
  for (const k of new Set([...Object.keys(actual.attrs), ...Object.keys(expected.attrs)]))
    if (actual.attrs[k] !== expected.attrs[k])
      return `${here} @${k}: ${JSON.stringify(actual.attrs[k] ?? null)} in the file, ${JSON.stringify(expected.attrs[k] ?? null)} in the manifest`;
  const norm = (e: XmlElement) => (e.children.length ? e.text.trim() : e.text);
  if (here !== skipText && norm(actual) !== norm(expected))
    return `${here}: text ${JSON.stringify(norm(actual).slice(0, 60))} in the file, ${JSON.stringify(norm(expected).slice(0, 60))} in the manifest`;
  if (actual.children.length !== expected.children.length)
    return `${here}: ${actual.children.length} child elements in the file, ${expected.children.length} expected`;
  for (let i = 0; i < expected.children.length; i++) {
    const d = firstDifference(actual.children[i]!, expected.children[i]!, here, skipText);
    if (d) return d;
  }
  return undefined;
}

/** Verifies the XML package read from `source`; see VerifyReport. */
export async function verifyXmlPackage(
  source: AsyncIterable<Uint8Array>,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const checks: VerifyCheck[] = [];
  const warnings: string[] = [];
  const extracted: Record<string, string> = {};
  const check = (name: string, ok: boolean, detail: string) => {
    checks.push({ name, ok, detail });
    return ok;
  };
  const report = (manifest?: PackageManifest): VerifyReport => ({
    valid: checks.length > 0 && checks.every((c) => c.ok),
    checks,
    warnings,
    ...(manifest ? { manifest } : {}),
    extracted,
  });
  const out = options.extractDir;
  if (out) mkdirSync(out, { recursive: true });
  const save = (name: string, bytes: Uint8Array) => {
    if (!out) return;
    writeFileSync(join(out, name), bytes);
    extracted[name] = join(out, name);
  };

  // The payload is hashed (and written out) piece by piece as it is read.
  const payloadHash = createHash('sha256');
  const payloadDecoder = new Base64Decoder();
  let payloadSize = 0;
  let payloadError: string | undefined;
  let payloadFd: number | undefined;
  const takePayload = (bytes: Uint8Array) => {
    payloadHash.update(bytes);
    payloadSize += bytes.length;
    if (payloadFd !== undefined) writeSync(payloadFd, bytes);
  };

  let root: XmlElement;
  const raw: string[] = [];
  try {
    if (out) {
      payloadFd = openSync(join(out, 'payload.bin'), 'w');
      extracted['payload.bin'] = join(out, 'payload.bin');
    }
    root = await readXml(source, {
      rawText: (piece) => raw.push(piece),
      streamText: (path) =>
        path.length === 2 && path[1] === 'payload'
          ? (piece) => {
              if (payloadError) return;
              try {
                takePayload(payloadDecoder.push(piece));
              } catch (e) {
                payloadError = message(e);
              }
            }
          : undefined,
    });
    if (!payloadError) takePayload(payloadDecoder.end());
  } catch (e) {
    check('XML structure', false, message(e));
    return report();
  } finally {
    if (payloadFd !== undefined) closeSync(payloadFd);
  }

  const names = root.children.map((c) => c.name).join(',');
  if (
    !check(
      'XML structure',
      root.name === 'firmwarePackage' &&
        root.attrs.xmlns === XML_NAMESPACE &&
        root.attrs.formatVersion === FORMAT_VERSION &&
        TOP_LEVEL.test(names),
      `<${root.name} xmlns="${root.attrs.xmlns ?? ''}" formatVersion="${root.attrs.formatVersion ?? ''}"> with ${names}`,
    )
  )
    return report();
  const child = (name: string) => root.children.find((c) => c.name === name);

  // The manifest: the signed bytes.
  let manifest: PackageManifest;
  let manifestBytes: Uint8Array;
  try {
    const el = child('manifest')!;
    manifestBytes = decodeBase64(el.text);
    save('data.bin', manifestBytes);
    const digest = sha256Hex(manifestBytes);
    if (el.attrs.sha256 !== digest)
      throw new Error(`its SHA-256 is ${digest}, the file says ${el.attrs.sha256}`);
    const json = new TextDecoder('utf-8', { fatal: true }).decode(manifestBytes);
    const parsed = manifestSchema.safeParse(JSON.parse(json));
    if (!parsed.success)
      throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    manifest = parsed.data;
    // the one form the portal writes: compact, keys in the documented order, JSON's own escapes
    if (JSON.stringify(manifest) !== json)
      throw new Error('it is not in the canonical form (compact JSON, keys in the documented order)');
    check('Manifest', true, `${manifestBytes.length} bytes, SHA-256 ${digest}`);
  } catch (e) {
    check('Manifest', false, message(e));
    return report();
  }

  // Header bytes: CRC, layout, and the digests the manifest records.
  const headerEl = child('header')!;
  const bytesEl = headerEl.children.find((c) => c.name === 'bytes');
  let header: Header | undefined;
  let headerBytes: Uint8Array | undefined;
  try {
    if (!bytesEl) throw new Error('<header> has no <bytes>');
    headerBytes = decodeBase64(bytesEl.text);
    save('header.bin', headerBytes);
    header = decodeHeader(headerBytes);
    const crc = new DataView(headerBytes.buffer, headerBytes.byteOffset).getUint32(
      headerBytes.length - 4,
      true,
    );
    check('Header CRC-32 and layout', true, `${headerBytes.length} bytes, CRC ${hex32(crc)}`);
    const got = { size: headerBytes.length, crc32: hex32(crc), sha256: sha256Hex(headerBytes) };
    check(
      'Header matches the manifest',
      got.size === manifest.header.size &&
        got.crc32 === manifest.header.crc32 &&
        got.sha256 === manifest.header.sha256,
      `SHA-256 ${got.sha256}${got.sha256 === manifest.header.sha256 ? '' : `, manifest says ${manifest.header.sha256}`}`,
    );
  } catch (e) {
    check('Header CRC-32 and layout', false, message(e));
  }

  // Payload and patch config digests.
  const payloadSha256 = payloadHash.digest('hex');
  if (payloadError) check('Payload SHA-256', false, `the payload's base64 ${payloadError}`);
  else {
    const digestEl = child('payloadDigest')!;
    const ok =
      payloadSha256 === manifest.payload.sha256 &&
      payloadSize === manifest.payload.size &&
      digestEl.attrs.sha256 === payloadSha256 &&
      digestEl.attrs.size === String(payloadSize);
    check(
      'Payload SHA-256',
      ok,
      ok
        ? `${payloadSize} bytes, SHA-256 ${payloadSha256}`
        : `${payloadSize} bytes hash to ${payloadSha256}; the manifest says ${manifest.payload.size} bytes, ${manifest.payload.sha256}`,
    );
  }
  let configBytes: Uint8Array | undefined;
  const configEl = child('patchConfig');
  if (manifest.patchConfig || configEl) {
    try {
      if (!manifest.patchConfig || !configEl)
        throw new Error('the file and the manifest disagree on whether there is one');
      configBytes = decodeBase64(configEl.text);
      save('patch-config.bin', configBytes);
      const digest = sha256Hex(configBytes);
      check(
        'Patch config SHA-256',
        digest === manifest.patchConfig.sha256 && configBytes.length === manifest.patchConfig.size,
        `${configBytes.length} bytes, SHA-256 ${digest}`,
      );
    } catch (e) {
      check('Patch config SHA-256', false, message(e));
    }
  }

  // The header must describe this package and these files.
  if (header) {
    const fixed = (kind: string) =>
      header.fields.find((f) => f.type === 'fixed' && f.computed === kind)?.value as number | undefined;
    const problems: string[] = [];
    if (fixed('packageType') !== PACKAGE_TYPE_CODES[manifest.package.type])
      problems.push(
        `Type is ${fixed('packageType')}, a ${manifest.package.type} package has ${PACKAGE_TYPE_CODES[manifest.package.type]}`,
      );
    if (fixed('patchDataSize') !== payloadSize)
      problems.push(`Patch Data Size is ${fixed('patchDataSize')}, the payload is ${payloadSize} bytes`);
    if (!manifest.package.type.startsWith(`${manifest.package.stage}_`))
      problems.push(`a ${manifest.package.type} package cannot have stage ${manifest.package.stage}`);
    if ((manifest.package.resourceType === 'MODEL') !== (manifest.patchConfig !== null))
      problems.push(
        `a ${manifest.package.resourceType} package ${manifest.package.resourceType === 'MODEL' ? 'needs' : 'has no'} a patch config`,
      );
    if (fixed('patchConfigSize') !== (configBytes?.length ?? 0))
      problems.push(
        `Patch Config Size is ${fixed('patchConfigSize')}, the patch config is ${configBytes?.length ?? 0} bytes`,
      );
    check(
      'Header describes this package',
      problems.length === 0,
      problems.join('; ') || 'type and sizes agree',
    );
  }

  // Signature.
  const sigEl = child('signature');
  const keyEl = child('publicKey');
  let signature: Uint8Array | undefined;
  let publicKeyDer: Uint8Array | undefined;
  if (isSignedType(manifest.package.type)) {
    try {
      if (!manifest.signature)
        throw new Error(`a ${manifest.package.type} package has no signature in its manifest`);
      if (!sigEl || !keyEl) throw new Error('the signature or the public key is missing');
      if (sigEl.attrs.algorithm !== SIGNATURE_ALGORITHM)
        throw new Error(`unknown algorithm ${sigEl.attrs.algorithm}`);
      signature = decodeBase64(sigEl.text);
      publicKeyDer = decodeBase64(keyEl.text);
      save('sig.der', signature);
      if (isHighS(signature))
        throw new Error('the signature is high-S (s > n/2); this format accepts low-S signatures only');
      const embedded = createPublicKey({ key: Buffer.from(publicKeyDer), format: 'der', type: 'spki' });
      if (out) {
        writeFileSync(join(out, 'key.pem'), embedded.export({ type: 'spki', format: 'pem' }));
        extracted['key.pem'] = join(out, 'key.pem');
      }
      const okEmbedded = verifyWith(embedded, manifestBytes, signature);
      check(
        'Signature (key in the file)',
        okEmbedded,
        `${SIGNATURE_ALGORITHM}, key ${manifest.signature.keyId}, signed by ${manifest.signature.signedBy.name} (${manifest.signature.signedBy.role}) at ${manifest.signature.signedAt}`,
      );
      if (options.trustedKeyPem) {
        const trusted = createPublicKey(options.trustedKeyPem);
        const same = trusted.export({ type: 'spki', format: 'der' }).equals(Buffer.from(publicKeyDer));
        check(
          'Signature (trusted key)',
          verifyWith(trusted, manifestBytes, signature),
          same
            ? 'the trusted key is the key in the file'
            : 'the trusted key differs from the key in the file',
        );
      } else
        warnings.push(
          'The signature was checked with the key inside the file: that proves the file is intact, not who signed it. Pass --key with the portal public key to check the origin.',
        );
    } catch (e) {
      check('Signature (key in the file)', false, message(e));
    }
  } else {
    check(
      'Unsigned package',
      !sigEl && !keyEl && manifest.signature === null,
      sigEl || manifest.signature
        ? `a ${manifest.package.type} package must not carry a signature`
        : 'no signature expected',
    );
    // the device policy: a device holding a key accepts only packages signed by it
    if (options.trustedKeyPem)
      check(
        'Signature (trusted key)',
        false,
        `a ${manifest.package.type} package is not signed; a device that trusts this key refuses it`,
      );
    else
      warnings.push(
        `A ${manifest.package.type} package carries no signature: only its integrity was checked${
          manifest.package.stage === 'RELEASE' ? '; a device refuses an unsigned release package' : ''
        }.`,
      );
  }

  // Everything a person reads must be what the manifest (and the header bytes) say.
  if (header && headerBytes) {
    try {
      const expectedXml =
        renderHead({ manifest, header, headerBytes, patchConfigBytes: configBytes }) +
        renderTail({
          manifest,
          manifestBytes,
          manifestSha256: sha256Hex(manifestBytes),
          signature,
          publicKeyDer,
        });
      const expected = await readXml(expectedXml);
      const diff = firstDifference(root, expected, '', '/firmwarePackage/payload');
      check(
        'Readable copy matches the signed manifest',
        !diff,
        diff ?? 'metadata, DCC, approvals, header fields, digests',
      );
      // the line layout is part of the format (shell tools depend on it): every character outside the
      // payload's base64 must be the one the format prescribes
      const written = raw.join('');
      const at = [...written].findIndex((c, i) => c !== expectedXml[i]);
      const sameLayout = written === expectedXml;
      check(
        'Layout',
        sameLayout,
        sameLayout
          ? 'lines, indentation and attribute order as the format prescribes'
          : `differs from the prescribed layout at character ${at < 0 ? Math.min(written.length, expectedXml.length) : at} (outside the payload)`,
      );
    } catch (e) {
      check('Readable copy matches the signed manifest', false, message(e));
    }
  }
  return report(manifest);
}

function verifyWith(key: KeyObject, data: Uint8Array, signature: Uint8Array): boolean {
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') return false;
  try {
    return verify('sha256', data, { key, dsaEncoding: 'der' }, signature);
  } catch {
    return false;
  }
}

/** Verifies the XML package in file `path`. */
export function verifyXmlFile(path: string, options: VerifyOptions = {}): Promise<VerifyReport> {
  return verifyXmlPackage(createReadStream(path, { highWaterMark: 256 * 1024 }), options);
}

/** The report as text for a terminal: one line per check, warnings, then the verdict. */
export function formatReport(r: VerifyReport): string {
  const lines: string[] = [];
  if (r.manifest) {
    const p = r.manifest.package;
    lines.push(
      `Package ${JSON.stringify(p.name)} (${p.type}, ${p.stage}), id ${p.id}, generated ${p.generatedAt}`,
    );
  }
  for (const c of r.checks) lines.push(`  ${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`);
  for (const w of r.warnings) lines.push(`  NOTE  ${w}`);
  for (const [name, path] of Object.entries(r.extracted)) lines.push(`  wrote ${name} -> ${path}`);
  const failed = r.checks.filter((c) => !c.ok).length;
  lines.push(
    r.valid ? 'VERDICT: VALID' : `VERDICT: INVALID (${failed} check${failed === 1 ? '' : 's'} failed)`,
  );
  return `${lines.join('\n')}\n`;
}
