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

/** The trusted keys, read; a key that cannot be read is refused by the CLI before this runs. */
const trustedKeys = (ctx: VerifyContext): KeyObject[] =>
  (ctx.options.trustedKeyPems ?? []).map((pem) => createPublicKey(pem));

/**
 * Rule 1 of the device policy for a signed development package (docs/package-format.md §7, decision 296):
 * a device in the field refuses it whatever key signed it (packages signed before the keys were split
 * carry the release key's signature); a device in a development mode accepts it.
 */
function developmentPolicy(ctx: VerifyContext, type: string): void {
  if (!ctx.options.devMode) {
    ctx.check(
      'Device policy',
      false,
      `a ${type} package is for devices in a development mode; a device in the field refuses every development package, whatever key signed it`,
    );
    return;
  }
  ctx.check(
    'Device policy',
    true,
    `DEVELOPMENT MODE (--dev): a ${type} package is accepted, as only a device in a development mode accepts it; a device in the field refuses it`,
  );
  ctx.devModeAccepted = 'development';
}

/**
 * The signature of a signed package (with the key in the file and, when given, the trusted keys), or the
 * absence of one in an unsigned package, and the device policy for development packages. Answers the
 * signature and key bytes read, for the layout check.
 */
export function checkSignature(
  ctx: VerifyContext,
  manifest: PackageManifest,
  manifestBytes: Uint8Array,
  sigEl: XmlElement | undefined,
  keyEl: XmlElement | undefined,
): { signature?: Uint8Array; publicKeyDer?: Uint8Array } {
  const keys = trustedKeys(ctx);
  const type = manifest.package.type;
  if (!isSignedType(type)) {
    ctx.check(
      'Unsigned package',
      !sigEl && !keyEl && manifest.signature === null,
      sigEl || manifest.signature ? `a ${type} package must not carry a signature` : 'no signature expected',
    );
    // the device policy: a device holding keys accepts only packages signed by one of them; a device in
    // a development mode (--dev) also a DEV_UNSIGNED one, never a release package (decision 194)
    if (keys.length > 0 && ctx.options.devMode && type === 'DEV_UNSIGNED') {
      ctx.check(
        'Signature (trusted key)',
        true,
        'DEVELOPMENT MODE (--dev): a DEV_UNSIGNED package is accepted unsigned, as only a device in a development mode accepts it; a device in the field refuses it',
      );
      ctx.devModeAccepted = 'unsigned';
      ctx.warnings.push(
        'DEVELOPMENT MODE: this package is NOT signed. Only a device in a development mode, which cannot be entered in the field, may accept it. Never use --dev to decide about a release.',
      );
    } else if (keys.length > 0)
      ctx.check(
        'Signature (trusted key)',
        false,
        ctx.options.devMode && type !== 'DEV_UNSIGNED'
          ? `a ${type} package is not signed; --dev accepts unsigned development packages only, never a release package: every device refuses it`
          : `a ${type} package is not signed; a device that trusts this key refuses it`,
      );
    else
      ctx.warnings.push(
        `A ${type} package carries no signature: only its integrity was checked${
          manifest.package.stage === 'RELEASE' ? '; a device refuses an unsigned release package' : ''
        }.`,
      );
    return {};
  }
  let signature: Uint8Array | undefined;
  let publicKeyDer: Uint8Array | undefined;
  try {
    if (!manifest.signature) throw new Error(`a ${type} package has no signature in its manifest`);
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
    if (keys.length > 0) {
      const sig = signature;
      const index = keys.findIndex((k) => verifyWith(k, manifestBytes, sig));
      const der = Buffer.from(publicKeyDer);
      const isInFile = (k: KeyObject) => k.export({ type: 'spki', format: 'der' }).equals(der);
      const which = keys.length === 1 ? 'the trusted key' : `trusted key ${index + 1} of ${keys.length}`;
      ctx.check(
        'Signature (trusted key)',
        index >= 0,
        index >= 0
          ? `verifies with ${which}${isInFile(keys[index]!) ? ', the key in the file' : ', which differs from the key in the file'}`
          : `the signature ${keys.length === 1 ? 'does not verify with the trusted key' : `verifies with none of the ${keys.length} trusted keys`}: ${keys.some(isInFile) ? 'the file was changed after signing' : `the trusted key${keys.length === 1 ? ' differs' : 's differ'} from the key in the file`}`,
      );
      if (index >= 0) ctx.signedBy = ctx.options.trustedKeyPems![index];
      // by the type: a DEV_SIGNED package claiming the RELEASE stage is still a development package
      if (type.startsWith('DEV_')) developmentPolicy(ctx, type);
    } else {
      ctx.warnings.push(
        'The signature was checked with the key inside the file: that proves the file is intact, not who signed it. Pass --key with the portal public key to check the origin.',
      );
      if (type.startsWith('DEV_'))
        ctx.warnings.push(`A ${type} package: a device in the field refuses every development package.`);
    }
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
