import { createHash } from 'node:crypto';
import { editBlob, forge, withCrc } from './forge';
import { type BuildContext, type Def, inCategory, refusedBy, type VectorDef } from './vector';

/**
 * Tampered copies of the real release packages: their payload, header, XML layout and approval records.
 * Each differs from a real package in one respect, and is refused by the rule about that respect.
 */

const T = 'release-signed-patch';
const M = 'release-signed-model';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The package `id` with its manifest edited and signed again by the release key, consistent otherwise. */
const resigned =
  (id: string, o: Omit<Parameters<typeof forge>[1], 'signer'> = {}) =>
  async (c: BuildContext) => ({
    package: await forge(c.parts(id), { signer: c.key('release'), ...o }),
  });
/** The package `id` with its text edited. */
const edited = (id: string, edit: (xml: string) => string) => async (c: BuildContext) => {
  const xml = c.xml(id);
  const out = edit(xml);
  if (out === xml) throw new Error(`the edit of ${id} changed nothing`);
  return { package: out };
};

const PAYLOAD: Def[] = [
  {
    id: 'payload-byte-changed',
    description: 'One byte of the payload changed (its base64 re-encoded).',
    ...refusedBy('Payload SHA-256'),
    files: edited(T, (x) =>
      editBlob(x, 'payload', (b) => Buffer.concat([Buffer.of(b[0]! ^ 1), b.subarray(1)])),
    ),
  },
  {
    id: 'payload-truncated',
    description: 'The payload one byte short.',
    ...refusedBy('Payload SHA-256'),
    files: edited(T, (x) => editBlob(x, 'payload', (b) => b.subarray(0, -1))),
  },
  {
    id: 'payload-extended',
    description: 'One byte appended to the payload.',
    ...refusedBy('Payload SHA-256'),
    files: edited(T, (x) => editBlob(x, 'payload', (b) => Buffer.concat([b, Buffer.of(0)]))),
  },
  {
    id: 'payload-of-another-package',
    description:
      "Another package's payload, with <payloadDigest> rewritten to match it (the manifest unchanged).",
    ...refusedBy('Payload SHA-256'),
    files: async (c) => {
      const other = c.parts(M).payload;
      const x = editBlob(c.xml(T), 'payload', () => other).replace(
        /<payloadDigest size="\d+" sha256="[0-9a-f]{64}"\/>/,
        `<payloadDigest size="${other.length}" sha256="${createHash('sha256').update(other).digest('hex')}"/>`,
      );
      return { package: x };
    },
  },
  {
    id: 'payload-base64-line-break',
    description: 'A line break inside the payload base64 (§1: no white space of any kind).',
    ...refusedBy('Payload SHA-256'),
    files: edited(T, (x) => x.replace(/(<payload [^>]*>.{40})/, '$1\n')),
  },
  {
    id: 'payload-base64-space',
    description: 'A space inside the payload base64.',
    ...refusedBy('Payload SHA-256'),
    files: edited(T, (x) => x.replace(/(<payload [^>]*>.{40})/, '$1 ')),
  },
  {
    id: 'payload-base64-not-canonical',
    description:
      'Payload base64 whose unused low bits are not zero: it decodes to the same bytes, but is not the one form (§1).',
    ...refusedBy('XML structure'),
    files: edited(T, (x) =>
      x.replace(
        /(<payload [^>]*>[^<]*)([A-Za-z0-9+/])(==<\/payload>)/,
        (_m, head: string, c: string, tail: string) => {
          const v = B64.indexOf(c);
          return `${head}${B64[v | 1]}${tail}`;
        },
      ),
    ),
  },
  {
    id: 'payload-base64-bad-character',
    description: 'A character outside the base64 alphabet in the payload.',
    ...refusedBy('Payload SHA-256'),
    files: edited(T, (x) => x.replace(/(<payload [^>]*>.{20})./, '$1*')),
  },
  {
    id: 'payload-digest-attribute-changed',
    description: '<payloadDigest @sha256> says another digest (payload and manifest intact).',
    ...refusedBy('Payload SHA-256'),
    files: edited(T, (x) =>
      x.replace(
        /(<payloadDigest size="\d+" sha256=")([0-9a-f])/,
        (_m, a: string, d: string) => `${a}${d === '0' ? '1' : '0'}`,
      ),
    ),
  },
  {
    id: 'patch-config-byte-changed',
    description: "One byte of a model's patch config changed.",
    ...refusedBy('Patch config SHA-256'),
    files: edited(M, (x) =>
      editBlob(x, 'patchConfig', (b) => Buffer.from(b.toString().replace('3.1.0', '3.1.1'))),
    ),
  },
  {
    id: 'patch-config-removed',
    description: "A model's <patchConfig> element removed.",
    ...refusedBy('Patch config SHA-256'),
    files: edited(M, (x) => x.replace(/ {2}<patchConfig [^\n]*\n/, '')),
  },
  {
    id: 'patch-config-on-a-patch',
    description: 'A <patchConfig> element added to a patch package.',
    ...refusedBy('Patch config SHA-256'),
    files: async (c) => ({
      package: c.xml(T).replace(/( {2}<payload )/, `${/ {2}<patchConfig [^\n]*\n/.exec(c.xml(M))![0]}$1`),
    }),
  },
];

const HEADER: Def[] = [
  {
    id: 'header-byte-changed',
    description: 'One header byte changed (Package Id): the CRC no longer matches.',
    ...refusedBy('Header CRC-32 and layout'),
    files: edited(T, (x) => editBlob(x, 'bytes', (b) => Buffer.from(b.map((v, i) => (i === 5 ? v ^ 1 : v))))),
  },
  {
    id: 'header-field-changed-crc-fixed',
    description:
      'A header field changed and the CRC recomputed: the bytes are not the signed ones (manifest header.sha256).',
    ...refusedBy('Header matches the manifest'),
    files: edited(T, (x) => editBlob(x, 'bytes', (b) => withCrc(b, (h) => h.writeUInt32LE(259, 4)))),
  },
  {
    id: 'header-magic-changed',
    description: 'Start Of Message not FWPK, CRC recomputed, manifest re-signed to bind it (§2).',
    ...refusedBy('Header CRC-32 and layout'),
    files: async (c) =>
      resigned(T, { headerBytes: withCrc(c.parts(T).headerBytes, (h) => h.write('FWPX', 0, 'latin1')) })(c),
  },
  {
    id: 'header-type-contradicts',
    description:
      'Header Type 1 (DEV_SIGNED) in a RELEASE_SIGNED package, consistent and re-signed (§7 rule 3).',
    ...refusedBy('Header describes this package'),
    files: async (c) =>
      resigned(T, { headerBytes: withCrc(c.parts(T).headerBytes, (h) => h.writeUInt8(1, 16)) })(c),
  },
  {
    id: 'header-patch-data-size-wrong',
    description: 'Patch Data Size one more than the payload, re-signed (§7 rule 5).',
    ...refusedBy('Header describes this package'),
    files: async (c) =>
      resigned(T, {
        headerBytes: withCrc(c.parts(T).headerBytes, (h) => h.writeUInt32LE(h.readUInt32LE(54) + 1, 54)),
      })(c),
  },
  {
    id: 'header-patch-config-size-wrong',
    description: "A model's Patch Config Size one less than its patch config, re-signed (§7 rule 5).",
    ...refusedBy('Header describes this package'),
    files: async (c) =>
      resigned(M, {
        headerBytes: withCrc(c.parts(M).headerBytes, (h) => h.writeUInt32LE(h.readUInt32LE(46) - 1, 46)),
      })(c),
  },
  {
    id: 'header-reserved-not-zero',
    description: 'Reserved Space not zero, re-signed (§2).',
    ...refusedBy('Header CRC-32 and layout'),
    files: async (c) =>
      resigned(T, { headerBytes: withCrc(c.parts(T).headerBytes, (h) => h.writeUInt8(1, 60)) })(c),
  },
  {
    id: 'header-patch-id-two-bits',
    description: 'Patch Id with two bits set, re-signed (§2).',
    ...refusedBy('Header CRC-32 and layout'),
    files: async (c) =>
      resigned(T, { headerBytes: withCrc(c.parts(T).headerBytes, (h) => h.writeUInt8(0x21, 17)) })(c),
  },
  {
    id: 'header-operation-unknown',
    description: 'Update Operation Type 3 (not INSTALL, UPDATE or ROLLBACK), re-signed (§2).',
    ...refusedBy('Header CRC-32 and layout'),
    files: async (c) =>
      resigned(T, { headerBytes: withCrc(c.parts(T).headerBytes, (h) => h.writeUInt8(3, 25)) })(c),
  },
  {
    id: 'header-criteria-count-17',
    description: 'A criteria list count of 17 (at most 16), re-signed (§2).',
    ...refusedBy('Header CRC-32 and layout'),
    files: async (c) =>
      resigned(T, { headerBytes: withCrc(c.parts(T).headerBytes, (h) => h.writeUInt8(17, 64)) })(c),
  },
  {
    id: 'header-operator-unknown',
    description: 'A criterion Operator 6 (at most 5), re-signed (§2).',
    ...refusedBy('Header CRC-32 and layout'),
    files: async (c) =>
      resigned(T, { headerBytes: withCrc(c.parts(T).headerBytes, (h) => h.writeUInt8(6, 77)) })(c),
  },
  {
    id: 'header-size-field-wrong',
    description: 'Header Size not the length of the header, re-signed (§2).',
    ...refusedBy('Header CRC-32 and layout'),
    files: async (c) =>
      resigned(T, {
        headerBytes: withCrc(c.parts(T).headerBytes, (h) => h.writeUInt32LE(h.length + 13, 30)),
      })(c),
  },
  {
    id: 'header-readable-row-changed',
    description: 'A readable <field> row says Package Id 259; the header bytes say 258 (§4.2).',
    ...refusedBy('Readable copy matches the signed manifest'),
    files: edited(T, (x) =>
      x.replace(
        'name="Package Id" value="258" hex="0x00000102"',
        'name="Package Id" value="259" hex="0x00000103"',
      ),
    ),
  },
];

export const PACKAGE_VECTORS: VectorDef[] = [
  ...inCategory('payload', PAYLOAD),
  ...inCategory('header', HEADER),
];

export { edited, M, resigned, T };
