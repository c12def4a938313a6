import type { PackageType } from '../../../shared/api/contracts/packages';
import type { ResourceType, Stage } from '../../../shared/api/contracts/resources';
import { headerLayout } from '../../../shared/domain/header/header-codec';
import type { Header } from '../../../shared/domain/header/header-schema';
import {
  XML_APPROVAL_MEANING,
  XML_DEV_APPROVAL_MEANING,
  XML_DEV_SIGNATURE_MEANING,
  XML_SIGNATURE_MEANING,
} from '../../../shared/domain/signature-meanings';
import type { SIGNATURE_ALGORITHM } from '../../ports/signer';

/**
 * The XML package, format version 1 (DESIGN §3, docs/package-format.md). One module renders it for the
 * builder and for the verifier, which re-renders the readable parts from the signed manifest and compares:
 * whatever a person reads in the file is what was signed.
 *
 * Order: metadata, DCC, approvals, header, patch config, payload, payload digest, manifest, signature,
 * public key. The signature follows the payload so that the payload is read once: it is hashed and
 * base64-encoded in the same pass, and signed at the end.
 */

export const XML_NAMESPACE = 'urn:firmware-release-portal:package:1';
export const FORMAT_VERSION = '1';
export const MANIFEST_FORMAT = 'firmware-release-portal/package-manifest/1';

/**
 * Meaning of an approval, written beside it (21 CFR Part 11 §11.50: what the signature means); the one
 * sentence the approver read in the confirm dialog (shared/domain/signature-meanings.ts, decision 141).
 */
export const APPROVAL_MEANING = XML_APPROVAL_MEANING;
/** Meaning of the release signature (the signer's sentence in the confirm dialog). */
export const SIGNATURE_MEANING = XML_SIGNATURE_MEANING;
/** The meanings of a development package's approvals and signature (testing, not release). */
export const DEV_APPROVAL_MEANING = XML_DEV_APPROVAL_MEANING;
export const DEV_SIGNATURE_MEANING = XML_DEV_SIGNATURE_MEANING;
/** The meanings packages generated before decision 141 carry; verifiers still accept them. */
export const LEGACY_APPROVAL_MEANING =
  'Approval: I have reviewed this package (header, device communication configuration and payload) and approve it for its stage.';
export const LEGACY_SIGNATURE_MEANING =
  'Signature: I confirm this is the package that was approved and authorise its delivery to devices.';

export interface PersonRecord {
  id: string;
  name: string;
  email: string;
  /** the role the person acted in */
  role: string;
}

/** The package as the manifest records it (the builder's input is this without `generatedAt`). */
export type ManifestPackage = {
  id: string;
  name: string;
  type: PackageType;
  stage: Stage;
  resourceName: string;
  resourceType: ResourceType;
  note: string;
  initiator: PersonRecord;
  createdAt: string;
  generatedAt: string;
};

/** The DCC as the manifest records it. */
export type ManifestDcc = {
  id: string;
  deviceId: string;
  telemetryType: string;
  deviceLimit: number;
  messageLimit: number;
};

/**
 * The signed data: this object, serialised once as compact JSON in UTF-8. The exact bytes travel in the
 * XML (base64), so verifiers check the signature over those bytes and never need to re-serialise.
 */
export interface PackageManifest {
  format: typeof MANIFEST_FORMAT;
  package: ManifestPackage;
  dcc: ManifestDcc;
  approvals: Array<{ approver: PersonRecord; approvedAt: string; meaning: string }>;
  /** `crc32` as 0x-prefixed upper-case hex; `sha256` lowercase hex of the header bytes */
  header: { size: number; crc32: string; sha256: string };
  patchConfig: { fileName: string; size: number; sha256: string } | null;
  payload: { fileName: string; size: number; sha256: string };
  signature: {
    algorithm: typeof SIGNATURE_ALGORITHM;
    keyId: string;
    signedBy: PersonRecord;
    signedAt: string;
    meaning: string;
  } | null;
}

/**
 * Replaces what XML 1.0 cannot carry, even escaped (most C0 controls, U+FFFE, U+FFFF, lone surrogates),
 * with U+FFFD. Only the readable copy is affected; the manifest keeps the original text.
 */
function xmlSafe(s: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let bad = (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0xfffe || c === 0xffff;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      bad = true;
    } else if (c >= 0xdc00 && c <= 0xdfff) bad = true;
    if (bad) {
      out += `${s.slice(from, i)}\uFFFD`;
      from = i + 1;
    }
  }
  return from === 0 ? s : out + s.slice(from);
}

/** Escapes text content; carriage returns become references so XML readers keep them. */
export function escapeText(s: string): string {
  return xmlSafe(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}

/** Escapes an attribute value; tabs and line breaks become references, which attribute normalisation would otherwise turn into spaces. */
export function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}

const attrs = (a: Record<string, string | number>): string =>
  Object.entries(a)
    .map(([k, v]) => ` ${k}="${escapeAttr(String(v))}"`)
    .join('');

const textEl = (indent: string, name: string, text: string) =>
  `${indent}<${name}>${escapeText(text)}</${name}>\n`;

const person = (p: PersonRecord) => ({ id: p.id, name: p.name, email: p.email, role: p.role });

/** Lowercase hex of bytes. */
export const toHex = (b: Uint8Array): string =>
  Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
/** Base64 of bytes, no line breaks. */
export const toBase64 = (b: Uint8Array): string =>
  Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');

/** The readable rows of the header: one `<field>` per run of bytes, with offset, width, value and hex. */
export function renderHeaderFields(header: Header, indent: string): string {
  return headerLayout(header)
    .map((l) => {
      let value: string;
      let hex: string;
      if (l.encoding === 'bytes') {
        value = String(l.value);
        hex = `0x${String(l.value).toUpperCase()}`;
      } else {
        const wire = l.encoding === 'mask64' ? 1n << BigInt(l.value) : BigInt(l.value);
        value = wire.toString(10);
        hex = `0x${wire
          .toString(16)
          .toUpperCase()
          .padStart(l.width * 2, '0')}`;
      }
      const a: Record<string, string | number> = {
        offset: l.offset,
        width: l.width,
        encoding: l.encoding,
        name: l.field,
        value,
        hex,
      };
      if (l.option !== undefined) a.option = l.option;
      return `${indent}<field${attrs(a)}/>\n`;
    })
    .join('');
}

export interface HeadParts {
  manifest: Pick<PackageManifest, 'package' | 'dcc' | 'approvals' | 'header' | 'patchConfig'> & {
    payload: Pick<PackageManifest['payload'], 'fileName'>;
  };
  header: Header;
  headerBytes: Uint8Array;
  patchConfigBytes?: Uint8Array;
}

/** Everything before the payload's base64 text, ending with the `<payload …>` start tag. */
export function renderHead({ manifest: m, header, headerBytes, patchConfigBytes }: HeadParts): string {
  const p = m.package;
  let s = '<?xml version="1.0" encoding="UTF-8"?>\n';
  s += `<firmwarePackage${attrs({ xmlns: XML_NAMESPACE, formatVersion: FORMAT_VERSION })}>\n`;
  s += '  <metadata>\n';
  s += textEl('    ', 'packageId', p.id);
  s += textEl('    ', 'name', p.name);
  s += textEl('    ', 'type', p.type);
  s += textEl('    ', 'stage', p.stage);
  s += textEl('    ', 'resourceName', p.resourceName);
  s += textEl('    ', 'resourceType', p.resourceType);
  s += `    <initiator${attrs(person(p.initiator))}/>\n`;
  s += textEl('    ', 'note', p.note);
  s += textEl('    ', 'createdAt', p.createdAt);
  s += textEl('    ', 'generatedAt', p.generatedAt);
  s += '  </metadata>\n';
  s += `  <dcc${attrs(m.dcc)}/>\n`;
  s += '  <approvals>\n';
  for (const a of m.approvals)
    s += `    <approval${attrs({ ...person(a.approver), approvedAt: a.approvedAt, meaning: a.meaning })}/>\n`;
  s += '  </approvals>\n';
  s += `  <header${attrs(m.header)}>\n`;
  s += `    <bytes encoding="base64">${toBase64(headerBytes)}</bytes>\n`;
  s += renderHeaderFields(header, '    ');
  s += '  </header>\n';
  if (m.patchConfig && patchConfigBytes)
    s += `  <patchConfig${attrs({ ...m.patchConfig, encoding: 'base64' })}>${toBase64(patchConfigBytes)}</patchConfig>\n`;
  s += `  <payload${attrs({ fileName: m.payload.fileName, encoding: 'base64' })}>`;
  return s;
}

export interface TailParts {
  manifest: PackageManifest;
  manifestBytes: Uint8Array;
  manifestSha256: string;
  signature?: Uint8Array;
  publicKeyDer?: Uint8Array;
}

/** Everything after the payload's base64 text, from `</payload>` to the end of the document. */
export function renderTail({
  manifest: m,
  manifestBytes,
  manifestSha256,
  signature,
  publicKeyDer,
}: TailParts): string {
  let s = '</payload>\n';
  s += `  <payloadDigest${attrs({ size: m.payload.size, sha256: m.payload.sha256 })}/>\n`;
  s += `  <manifest${attrs({ encoding: 'base64', sha256: manifestSha256 })}>${toBase64(manifestBytes)}</manifest>\n`;
  if (m.signature && signature && publicKeyDer) {
    const sg = m.signature;
    s += `  <signature${attrs({
      algorithm: sg.algorithm,
      keyId: sg.keyId,
      encoding: 'base64-der',
      signerId: sg.signedBy.id,
      signerName: sg.signedBy.name,
      signerEmail: sg.signedBy.email,
      signerRole: sg.signedBy.role,
      signedAt: sg.signedAt,
      meaning: sg.meaning,
    })}>${toBase64(signature)}</signature>\n`;
    s += `  <publicKey${attrs({ keyId: sg.keyId, format: 'spki-der', encoding: 'base64' })}>${toBase64(publicKeyDer)}</publicKey>\n`;
  }
  s += '</firmwarePackage>\n';
  return s;
}

/** Whether a package type is signed (its name ends in _SIGNED). */
export const isSignedType = (t: PackageType): boolean => t.endsWith('_SIGNED');
