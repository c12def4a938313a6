import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { isHighS } from '../../../shared/domain/ecdsa-low-s';
import type { Header } from '../../../shared/domain/header/header-schema';
import { SIGNATURE_ALGORITHM } from '../../ports/signer';
import { decodeBase64 } from './base64-stream';
import { isSignedType, type PackageManifest, renderHead, renderTail } from './xml-format';
import { readXml, type XmlElement } from './xml-reader';
import { message, sha256Hex, type VerifyContext } from './xml-verify-context';

/** The verifier's checks of the signature and of the readable copy against the signed manifest. */

function verifyWith(key: KeyObject, data: Uint8Array, signature: Uint8Array): boolean {
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') return false;
  try {
    return verify('sha256', data, { key, dsaEncoding: 'der' }, signature);
  } catch {
    return false;
  }
}

/**
 * The signature of a signed package (with the key in the file and, when given, the trusted key), or the
 * absence of one in an unsigned package. Answers the signature and key bytes read, for the layout check.
 */
export function checkSignature(
  ctx: VerifyContext,
  manifest: PackageManifest,
  manifestBytes: Uint8Array,
  sigEl: XmlElement | undefined,
  keyEl: XmlElement | undefined,
): { signature?: Uint8Array; publicKeyDer?: Uint8Array } {
  const trustedKeyPem = ctx.options.trustedKeyPem;
  if (!isSignedType(manifest.package.type)) {
    ctx.check(
      'Unsigned package',
      !sigEl && !keyEl && manifest.signature === null,
      sigEl || manifest.signature
        ? `a ${manifest.package.type} package must not carry a signature`
        : 'no signature expected',
    );
    // the device policy: a device holding a key accepts only packages signed by it; a device in a
    // development mode (--dev) also a DEV_UNSIGNED one, never a release package (decision 194)
    if (trustedKeyPem && ctx.options.devMode && manifest.package.type === 'DEV_UNSIGNED') {
      ctx.devModeAccepted = ctx.check(
        'Signature (trusted key)',
        true,
        'DEVELOPMENT MODE (--dev): a DEV_UNSIGNED package is accepted unsigned, as only a device in a development mode accepts it; a device in the field refuses it',
      );
      ctx.warnings.push(
        'DEVELOPMENT MODE: this package is NOT signed. Only a device in a development mode, which cannot be entered in the field, may accept it. Never use --dev to decide about a release.',
      );
    } else if (trustedKeyPem)
      ctx.check(
        'Signature (trusted key)',
        false,
        ctx.options.devMode && manifest.package.type !== 'DEV_UNSIGNED'
          ? `a ${manifest.package.type} package is not signed; --dev accepts unsigned development packages only, never a release package: every device refuses it`
          : `a ${manifest.package.type} package is not signed; a device that trusts this key refuses it`,
      );
    else
      ctx.warnings.push(
        `A ${manifest.package.type} package carries no signature: only its integrity was checked${
          manifest.package.stage === 'RELEASE' ? '; a device refuses an unsigned release package' : ''
        }.`,
      );
    return {};
  }
  let signature: Uint8Array | undefined;
  let publicKeyDer: Uint8Array | undefined;
  try {
    if (!manifest.signature)
      throw new Error(`a ${manifest.package.type} package has no signature in its manifest`);
    if (!sigEl || !keyEl) throw new Error('the signature or the public key is missing');
    if (sigEl.attrs.algorithm !== SIGNATURE_ALGORITHM)
      throw new Error(`unknown algorithm ${sigEl.attrs.algorithm}`);
    signature = decodeBase64(sigEl.text);
    publicKeyDer = decodeBase64(keyEl.text);
    ctx.save('sig.der', signature);
    if (isHighS(signature))
      throw new Error('the signature is high-S (s > n/2); this format accepts low-S signatures only');
    const embedded = createPublicKey({ key: Buffer.from(publicKeyDer), format: 'der', type: 'spki' });
    ctx.save('key.pem', embedded.export({ type: 'spki', format: 'pem' }));
    ctx.check(
      'Signature (key in the file)',
      verifyWith(embedded, manifestBytes, signature),
      `${SIGNATURE_ALGORITHM}, key ${manifest.signature.keyId}, signed by ${manifest.signature.signedBy.name} (${manifest.signature.signedBy.role}) at ${manifest.signature.signedAt}`,
    );
    if (trustedKeyPem) {
      const trusted = createPublicKey(trustedKeyPem);
      const same = trusted.export({ type: 'spki', format: 'der' }).equals(Buffer.from(publicKeyDer));
      ctx.check(
        'Signature (trusted key)',
        verifyWith(trusted, manifestBytes, signature),
        same ? 'the trusted key is the key in the file' : 'the trusted key differs from the key in the file',
      );
    } else
      ctx.warnings.push(
        'The signature was checked with the key inside the file: that proves the file is intact, not who signed it. Pass --key with the portal public key to check the origin.',
      );
  } catch (e) {
    ctx.check('Signature (key in the file)', false, message(e));
  }
  return { signature, publicKeyDer };
}

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

/** Everything a person reads must be what the manifest (and the header bytes) say, in the prescribed layout. */
export async function checkReadableCopy(
  ctx: VerifyContext,
  root: XmlElement,
  raw: readonly string[],
  parts: {
    manifest: PackageManifest;
    manifestBytes: Uint8Array;
    header: Header;
    headerBytes: Uint8Array;
    configBytes?: Uint8Array;
    signature?: Uint8Array;
    publicKeyDer?: Uint8Array;
  },
): Promise<void> {
  const { manifest, manifestBytes, header, headerBytes, configBytes, signature, publicKeyDer } = parts;
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
    ctx.check(
      'Readable copy matches the signed manifest',
      !diff,
      diff ?? 'metadata, DCC, approvals, header fields, digests',
    );
    // the line layout is part of the format (shell tools depend on it): every character outside the
    // payload's base64 must be the one the format prescribes
    const written = raw.join('');
    const at = [...written].findIndex((c, i) => c !== expectedXml[i]);
    const sameLayout = written === expectedXml;
    ctx.check(
      'Layout',
      sameLayout,
      sameLayout
        ? 'lines, indentation and attribute order as the format prescribes'
        : `differs from the prescribed layout at character ${at < 0 ? Math.min(written.length, expectedXml.length) : at} (outside the payload)`,
    );
  } catch (e) {
    ctx.check('Readable copy matches the signed manifest', false, message(e));
  }
}
