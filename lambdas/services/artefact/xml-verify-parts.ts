import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { PACKAGE_TYPES } from '../../../shared/api/contracts/packages';
import { RESOURCE_TYPES, STAGES } from '../../../shared/api/contracts/resources';
import { decodeHeader } from '../../../shared/domain/header/header-codec';
import type { Header } from '../../../shared/domain/header/header-schema';
import { PACKAGE_TYPE_CODES } from '../../../shared/domain/header/header-template';
import { ROLES } from '../../../shared/domain/roles';
import { SIGNATURE_ALGORITHM } from '../../ports/signer';
import { Base64Decoder, decodeBase64 } from './base64-stream';
import {
  APPROVAL_MEANING,
  DEV_APPROVAL_MEANING,
  DEV_SIGNATURE_MEANING,
  FORMAT_VERSION,
  LEGACY_APPROVAL_MEANING,
  LEGACY_SIGNATURE_MEANING,
  MANIFEST_FORMAT,
  type PackageManifest,
  SIGNATURE_MEANING,
  XML_NAMESPACE,
} from './xml-format';
import { readXml, type XmlElement } from './xml-reader';
import { hex32, message, sha256Hex, type VerifyContext } from './xml-verify-context';

/** The verifier's reading of the file and its checks of the parts the manifest records digests of. */

const person = z.strictObject({ id: z.string(), name: z.string(), email: z.string(), role: z.string() });
const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
/** sizes are at most 2^32 − 1, as the header's uint32 fields hold them (docs/package-format.md §5) */
const size = z.number().int().min(0).max(0xffff_ffff);
/** other integers at most 2^53 − 1: beyond it JSON readers disagree on the value */
const integer = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * A time in the one form of docs/package-format.md §1 (`2026-03-02T10:00:00.000Z`: UTC, milliseconds),
 * a real instant: what `toISOString` writes, and nothing else.
 */
export const isPortalTime = (s: string): boolean =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(s) &&
  !Number.isNaN(Date.parse(s)) &&
  new Date(s).toISOString() === s;
const time = z.string().refine(isPortalTime, { error: 'not a time in the form 2026-03-02T10:00:00.000Z' });
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
    createdAt: time,
    generatedAt: time,
  }),
  dcc: z.strictObject({
    id: z.string(),
    deviceId: z.string(),
    telemetryType: z.string(),
    deviceLimit: integer,
    messageLimit: integer,
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

/** The file as read: its element tree, its raw text outside the payload, and the streamed payload. */
export interface ReadPackage {
  root: XmlElement;
  raw: string[];
  payload: { sha256: string; size: number; error?: string };
}

/** The UTF-8 byte order mark: the format fixes line 1 as the XML declaration, so a file must not begin with it. */
const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * The file's bytes, refusing a leading UTF-8 byte order mark (docs/package-format.md §3.1): a decoder would
 * silently drop it, but the shell recipe of §9 and many device parsers do not, so it is never accepted.
 */
async function* refuseByteOrderMark(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const head: number[] = [];
  for await (const chunk of source) {
    if (head.length < UTF8_BOM.length) {
      head.push(...chunk.subarray(0, UTF8_BOM.length - head.length));
      if (head.length === UTF8_BOM.length && head.every((b, i) => b === UTF8_BOM[i]))
        throw new Error(
          'the file begins with a UTF-8 byte order mark (EF BB BF); line 1 must be the XML declaration itself',
        );
    }
    yield chunk;
  }
}

/**
 * Reads the file once; the payload is hashed (and written out) piece by piece as it is read. Undefined
 * (with a failed 'XML structure' check) when it is not well-formed XML.
 */
export async function readPackage(
  ctx: VerifyContext,
  source: AsyncIterable<Uint8Array>,
): Promise<ReadPackage | undefined> {
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
    if (ctx.out) {
      payloadFd = openSync(join(ctx.out, 'payload.bin'), 'w');
      ctx.extracted['payload.bin'] = join(ctx.out, 'payload.bin');
    }
    root = await readXml(refuseByteOrderMark(source), {
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
    ctx.check('XML structure', false, message(e));
    return undefined;
  } finally {
    if (payloadFd !== undefined) closeSync(payloadFd);
  }
  const payload = { sha256: payloadHash.digest('hex'), size: payloadSize, error: payloadError };
  return { root, raw, payload };
}

/** The root element and the top-level elements in the prescribed order. */
export function checkStructure(ctx: VerifyContext, root: XmlElement): boolean {
  const names = root.children.map((c) => c.name).join(',');
  return ctx.check(
    'XML structure',
    root.name === 'firmwarePackage' &&
      root.attrs.xmlns === XML_NAMESPACE &&
      root.attrs.formatVersion === FORMAT_VERSION &&
      TOP_LEVEL.test(names),
    `<${root.name} xmlns="${root.attrs.xmlns ?? ''}" formatVersion="${root.attrs.formatVersion ?? ''}"> with ${names}`,
  );
}

/** The manifest: the signed bytes, their digest, their schema and their canonical form. */
export function checkManifest(
  ctx: VerifyContext,
  el: XmlElement,
): { manifest: PackageManifest; manifestBytes: Uint8Array } | undefined {
  return ctx.guard('Manifest', () => {
    const manifestBytes = decodeBase64(el.text);
    ctx.save('data.bin', manifestBytes);
    const digest = sha256Hex(manifestBytes);
    if (el.attrs.sha256 !== digest)
      throw new Error(`its SHA-256 is ${digest}, the file says ${el.attrs.sha256}`);
    // ignoreBOM: a byte order mark is kept, so a manifest that begins with one fails as not canonical
    const json = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(manifestBytes);
    const parsed = manifestSchema.safeParse(JSON.parse(json));
    if (!parsed.success)
      throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    const manifest = parsed.data;
    // the one form the portal writes: compact, keys in the documented order, JSON's own escapes
    if (JSON.stringify(manifest) !== json)
      throw new Error('it is not in the canonical form (compact JSON, keys in the documented order)');
    ctx.check('Manifest', true, `${manifestBytes.length} bytes, SHA-256 ${digest}`);
    return { manifest, manifestBytes };
  });
}

/** Header bytes: CRC, layout, and the digests the manifest records. */
export function checkHeader(
  ctx: VerifyContext,
  headerEl: XmlElement,
  manifest: PackageManifest,
): { header?: Header; headerBytes?: Uint8Array } {
  const bytesEl = headerEl.children.find((c) => c.name === 'bytes');
  let header: Header | undefined;
  let headerBytes: Uint8Array | undefined;
  try {
    if (!bytesEl) throw new Error('<header> has no <bytes>');
    headerBytes = decodeBase64(bytesEl.text);
    ctx.save('header.bin', headerBytes);
    header = decodeHeader(headerBytes);
    const crc = new DataView(headerBytes.buffer, headerBytes.byteOffset).getUint32(
      headerBytes.length - 4,
      true,
    );
    ctx.check('Header CRC-32 and layout', true, `${headerBytes.length} bytes, CRC ${hex32(crc)}`);
    const got = { size: headerBytes.length, crc32: hex32(crc), sha256: sha256Hex(headerBytes) };
    ctx.check(
      'Header matches the manifest',
      got.size === manifest.header.size &&
        got.crc32 === manifest.header.crc32 &&
        got.sha256 === manifest.header.sha256,
      `SHA-256 ${got.sha256}${got.sha256 === manifest.header.sha256 ? '' : `, manifest says ${manifest.header.sha256}`}`,
    );
  } catch (e) {
    ctx.check('Header CRC-32 and layout', false, message(e));
  }
  return { header, headerBytes };
}

/** The payload's digest against the manifest and the payloadDigest element. */
export function checkPayload(
  ctx: VerifyContext,
  payload: ReadPackage['payload'],
  digestEl: XmlElement,
  manifest: PackageManifest,
): void {
  if (payload.error) {
    ctx.check('Payload SHA-256', false, `the payload's base64 ${payload.error}`);
    return;
  }
  const ok =
    payload.sha256 === manifest.payload.sha256 &&
    payload.size === manifest.payload.size &&
    digestEl.attrs.sha256 === payload.sha256 &&
    digestEl.attrs.size === String(payload.size);
  ctx.check(
    'Payload SHA-256',
    ok,
    ok
      ? `${payload.size} bytes, SHA-256 ${payload.sha256}`
      : `${payload.size} bytes hash to ${payload.sha256}; the manifest says ${manifest.payload.size} bytes, ${manifest.payload.sha256}`,
  );
}

/** The patch config (models only): present in both or neither, and its digest. Answers its bytes. */
export function checkPatchConfig(
  ctx: VerifyContext,
  configEl: XmlElement | undefined,
  manifest: PackageManifest,
): Uint8Array | undefined {
  if (!manifest.patchConfig && !configEl) return undefined;
  let configBytes: Uint8Array | undefined;
  ctx.guard('Patch config SHA-256', () => {
    if (!manifest.patchConfig || !configEl)
      throw new Error('the file and the manifest disagree on whether there is one');
    configBytes = decodeBase64(configEl.text);
    ctx.save('patch-config.bin', configBytes);
    const digest = sha256Hex(configBytes);
    ctx.check(
      'Patch config SHA-256',
      digest === manifest.patchConfig.sha256 && configBytes.length === manifest.patchConfig.size,
      `${configBytes.length} bytes, SHA-256 ${digest}`,
    );
  });
  return configBytes;
}

/** The header must describe this package and these files. */
export function checkHeaderDescribes(
  ctx: VerifyContext,
  manifest: PackageManifest,
  parts: { header: Header; payloadSize: number; configBytes: Uint8Array | undefined },
): void {
  const { header, payloadSize, configBytes } = parts;
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
  ctx.check(
    'Header describes this package',
    problems.length === 0,
    problems.join('; ') || 'type and sizes agree',
  );
}

/** The role codes an approval or the signature can name (docs/package-format.md §3.3): every role but ADMIN. */
const SIGNATURE_ROLES: readonly string[] = ROLES.filter((r) => r !== 'ADMIN');

/**
 * The electronic signatures the file records (21 CFR Part 11 §11.50, decision 141): every approval and the
 * release signature name a person and a role, carry a UTC time and a meaning. A meaning other than the
 * documented ones (docs/package-format.md) is a note, not a failure: the format lets a builder state its own.
 */
export function checkSignatureRecords(ctx: VerifyContext, manifest: PackageManifest): void {
  const problems: string[] = [];
  const signatures = [
    ...manifest.approvals.map((a, i) => ({
      what: `approval ${i + 1}`,
      who: a.approver,
      at: a.approvedAt,
      meaning: a.meaning,
      known: [APPROVAL_MEANING, DEV_APPROVAL_MEANING, LEGACY_APPROVAL_MEANING],
    })),
    ...(manifest.signature
      ? [
          {
            what: 'the signature',
            who: manifest.signature.signedBy,
            at: manifest.signature.signedAt,
            meaning: manifest.signature.meaning,
            known: [SIGNATURE_MEANING, DEV_SIGNATURE_MEANING, LEGACY_SIGNATURE_MEANING],
          },
        ]
      : []),
  ];
  if (manifest.approvals.length === 0) problems.push('no approval is recorded');
  for (const s of signatures) {
    if (!s.who.name.trim()) problems.push(`${s.what} has no printed name`);
    if (!s.who.role.trim()) problems.push(`${s.what} has no role`);
    else if (!SIGNATURE_ROLES.includes(s.who.role))
      ctx.warnings.push(`${s.what} names a role this portal does not know: ${JSON.stringify(s.who.role)}`);
    // the one form of §1 (UTC, milliseconds): the portal writes no other, so another means another writer
    if (!isPortalTime(s.at))
      problems.push(
        `${s.what}'s time ${JSON.stringify(s.at)} is not UTC ISO 8601 (2026-03-02T10:00:00.000Z)`,
      );
    if (!s.meaning.trim()) problems.push(`${s.what} has no meaning`);
    else if (!s.known.includes(s.meaning))
      ctx.warnings.push(`${s.what} states its own meaning: ${JSON.stringify(s.meaning)}`);
  }
  ctx.check(
    'Signature records',
    problems.length === 0,
    problems.join('; ') ||
      `${signatures.length} signature${signatures.length === 1 ? '' : 's'}, each with name, role, UTC time and meaning`,
  );
}
