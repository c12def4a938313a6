import { p256 } from '@noble/curves/nist.js';
import { EXAMPLE_SECRET, fixedKeySigner } from '../../lambdas/testing/artefact/package-format.example';
import { editBlob, forge, highS, spkiOf, withCrc } from './forge';
import {
  acceptedByBoth,
  type BuildContext,
  type Def,
  developmentOnly,
  inCategory,
  refusedBy,
  type VectorDef,
} from './vector';
import { edited, M, resigned, T } from './vectors-package';

/**
 * Signatures and keys (§6, §7 rule 2), forgeries of the signed data (§5: one form only, whoever signs
 * another), and development packages in the field (§7 rule 1, rule 3).
 */

const D = 'dev-signed-patch';
const TEXT = 'release-signed-patch-text';
const UNSIGNED = 'release-unsigned-patch';

/** The package's signature as DER edited by `edit`. */
const sigEdited = (id: string, edit: (der: Buffer) => Buffer) =>
  edited(id, (x) => editBlob(x, 'signature', edit));

const SIGNATURES: Def[] = [
  {
    id: 'signed-by-untrusted-key',
    description: 'Consistent and validly signed, but by a key no device trusts (its own key in <publicKey>).',
    ...refusedBy('Signature (trusted key)'),
    files: async (c) => ({ package: await forge(c.parts(T), { signer: c.key('untrusted') }) }),
  },
  {
    id: 'signed-by-rfc6979-example-key',
    description:
      'Signed by the published RFC 6979 example key of §8: known to everyone, trusted by no device.',
    ...refusedBy('Signature (trusted key)'),
    files: async (c) => ({ package: await forge(c.parts(T), { signer: fixedKeySigner(EXAMPLE_SECRET) }) }),
  },
  {
    id: 'signature-high-s',
    description: 'The high-S twin (r, n − s) of the valid signature (§6: low-S only).',
    ...refusedBy('Signature (key in the file)'),
    files: sigEdited(T, highS),
  },
  {
    id: 'signature-byte-changed',
    description: 'One byte of the signature changed.',
    ...refusedBy('Signature (key in the file)'),
    files: sigEdited(T, (b) => Buffer.concat([b.subarray(0, -1), Buffer.of(b.at(-1)! ^ 1)])),
  },
  {
    id: 'signature-of-another-package',
    description: "Another package's valid signature (by the same key) in place of this one's.",
    ...refusedBy('Signature (key in the file)'),
    files: async (c) => ({ package: editBlob(c.xml(T), 'signature', () => c.parts(M).signature!) }),
  },
  {
    id: 'signature-removed',
    description: 'A RELEASE_SIGNED package whose <signature> and <publicKey> are removed.',
    ...refusedBy('Signature (key in the file)'),
    files: edited(T, (x) => x.replace(/ {2}<signature [^\n]*\n {2}<publicKey [^\n]*\n/, '')),
  },
  {
    id: 'signature-grafted-on-unsigned',
    description: "An unsigned package with a signed package's <signature> and <publicKey> added.",
    ...refusedBy('Unsigned package'),
    files: async (c) => ({
      package: c
        .xml(UNSIGNED)
        .replace(
          '</firmwarePackage>\n',
          `${/ {2}<signature [^\n]*\n {2}<publicKey [^\n]*\n/.exec(c.xml(T))![0]}</firmwarePackage>\n`,
        ),
    }),
  },
  {
    id: 'signature-not-der',
    description: 'The signature as raw r‖s (64 bytes), not DER (§6).',
    ...refusedBy('Signature (key in the file)'),
    files: sigEdited(T, (der) => Buffer.from(p256.Signature.fromBytes(der, 'der').toBytes('compact'))),
  },
  {
    id: 'signature-trailing-byte',
    description: 'The DER signature followed by one more byte.',
    ...refusedBy('Signature (key in the file)'),
    files: sigEdited(T, (der) => Buffer.concat([der, Buffer.of(0)])),
  },
  {
    id: 'signature-r-zero',
    description: 'A DER signature with r = 0 (§6: r and s in 1 .. n − 1).',
    ...refusedBy('Signature (key in the file)'),
    files: sigEdited(T, () => Buffer.from('3006020100020101', 'hex')),
  },
  {
    id: 'signature-algorithm-changed',
    description: '<signature @algorithm> says ECDSA_P384_SHA384.',
    ...refusedBy('Signature (key in the file)'),
    files: edited(T, (x) => x.replace('algorithm="ECDSA_P256_SHA256"', 'algorithm="ECDSA_P384_SHA384"')),
  },
  {
    id: 'public-key-swapped',
    description: "<publicKey> holds another key; the signature is the release key's.",
    ...refusedBy('Signature (key in the file)'),
    files: async (c) => {
      const other = await spkiOf(c.key('untrusted'));
      return { package: editBlob(c.xml(T), 'publicKey', () => other) };
    },
  },
  {
    id: 'public-key-id-differs',
    description: "<publicKey @keyId> is not the manifest's signature.keyId (§6, §4.2).",
    ...refusedBy('Readable copy matches the signed manifest'),
    files: edited(T, (x) =>
      x.replace(/(<publicKey keyId=")local-p256-[0-9a-f]{16}/, '$1local-p256-0000000000000000'),
    ),
  },
  {
    id: 'key-id-relabelled',
    description:
      'The key id changed to another label and signed by the release key: the id is a label, the key that verifies decides (§6).',
    ...acceptedByBoth,
    files: resigned(T, {
      keepKeyId: true,
      manifest: (m) => {
        m.signature!.keyId = 'arn:aws:kms:eu-central-1:123456789012:alias/frp-release';
      },
    }),
  },
  {
    id: 'rewritten-release-unsigned',
    description:
      'A signed release package rewritten as a consistent RELEASE_UNSIGNED one (signature dropped, Type 2): every device refuses it.',
    ...refusedBy('Signature (trusted key)'),
    files: async (c) => ({
      package: await forge(c.parts(T), {
        signer: null,
        headerBytes: withCrc(c.parts(T).headerBytes, (h) => h.writeUInt8(2, 16)),
        manifest: (m) => {
          m.package.type = 'RELEASE_UNSIGNED';
          m.signature = null;
        },
      }),
    }),
  },
];

const FORGERIES: Def[] = [
  {
    id: 'release-signed-by-dev-key',
    description:
      'A RELEASE_SIGNED package signed by the development key. The portal never signs a release package with it; a device in the field refuses it (it holds the release key only); a development device, which holds both keys and runs unsigned development builds anyway, accepts it (§7 rule 2).',
    ...developmentOnly('Signature (trusted key)'),
    files: async (c) => ({ package: await forge(c.parts(T), { signer: c.key('dev') }) }),
  },
  {
    id: 'rewritten-dev-unsigned',
    description:
      'A signed release package rewritten as a consistent DEV_UNSIGNED one: a device in the field refuses it; a development device accepts any consistent unsigned development package (that is what development mode means, §7 rule 1).',
    ...developmentOnly('Signature (trusted key)'),
    files: async (c) => ({
      package: await forge(c.parts(T), {
        signer: null,
        headerBytes: withCrc(c.parts(T).headerBytes, (h) => h.writeUInt8(0, 16)),
        manifest: (m) => {
          m.package.type = 'DEV_UNSIGNED';
          m.package.stage = 'DEV';
          m.signature = null;
        },
      }),
    }),
  },
  {
    id: 'dev-relabelled-release-old-signature',
    description:
      'A DEV_SIGNED package relabelled RELEASE_SIGNED (type, stage, header Type) keeping its old signature.',
    ...refusedBy('Signature (key in the file)'),
    files: async (c) => ({
      package: await forge(c.parts(D), {
        signer: c.key('dev'),
        headerBytes: withCrc(c.parts(D).headerBytes, (h) => h.writeUInt8(3, 16)),
        manifest: (m) => {
          m.package.type = 'RELEASE_SIGNED';
          m.package.stage = 'RELEASE';
        },
        signature: () => c.parts(D).signature!,
      }),
    }),
  },
  ...(
    [
      [
        'manifest-white-space',
        'White space between the tokens of the signed data',
        (j: string) => j.replace('{"format":', '{ "format": '),
      ],
      [
        'manifest-escaped-non-ascii',
        'A \\u escape of a non-ASCII character in the signed data',
        (j: string) => j.replace('Grüße', 'Gr\\u00fc\\u00dfe'),
        TEXT,
      ],
      [
        'manifest-duplicate-key',
        'A key written twice in the signed data',
        (j: string) => j.replace('"format":"firmware', '"format":"x","format":"firmware'),
      ],
      [
        'manifest-integer-fraction',
        'An integer written with a fraction (4096.0)',
        (j: string) => j.replace('"deviceLimit":4096', '"deviceLimit":4096.0'),
      ],
      [
        'manifest-integer-exponent',
        'An integer written with an exponent (4.096e3)',
        (j: string) => j.replace('"deviceLimit":4096', '"deviceLimit":4.096e3'),
      ],
      [
        'manifest-escaped-slash',
        'An escaped slash (\\/) in the signed data',
        (j: string) => j.replace('package-manifest/1', 'package-manifest\\/1'),
      ],
      [
        'manifest-upper-case-escape',
        'A control character escaped with upper-case hex (\\u001F)',
        (j: string) => j.replace('\\u001f', '\\u001F'),
        TEXT,
      ],
      [
        'manifest-lone-surrogate-upper-case',
        'A lone surrogate escaped with upper-case hex (\\uD800; §5: \\udxxx)',
        (j: string) => j.replace('\\ud800', '\\uD800'),
        TEXT,
      ],
      ['manifest-byte-order-mark', 'A byte order mark before the signed data', (j: string) => `\uFEFF${j}`],
    ] as const
  ).map(
    ([id, what, json, base]): Def => ({
      id,
      description: `${what}, signed by the release key: the signed data has one form only (§5).`,
      ...refusedBy('Manifest'),
      files: resigned(base ?? T, { json }),
    }),
  ),
  {
    id: 'manifest-extra-key',
    description: 'A key the manifest does not have (package.comment), signed by the release key (§5).',
    ...refusedBy('Manifest'),
    files: resigned(T, { manifest: (m) => void Object.assign(m.package, { comment: 'extra' }) }),
  },
  {
    id: 'manifest-keys-reordered',
    description: 'The keys of package in another order, signed by the release key (§5).',
    ...refusedBy('Manifest'),
    files: resigned(T, {
      manifest: (m) => {
        const { id, ...rest } = m.package;
        m.package = { ...rest, id } as typeof m.package;
      },
    }),
  },
  {
    id: 'manifest-integer-too-large',
    description: 'A DCC limit of 2^60, above 2^53 − 1 (§5), signed by the release key.',
    ...refusedBy('Manifest'),
    files: resigned(T, {
      manifest: (m) => {
        m.dcc.deviceLimit = 2 ** 60;
      },
    }),
  },
  {
    id: 'manifest-signature-null',
    description: 'A RELEASE_SIGNED package whose manifest says "signature":null (§7 rule 3).',
    ...refusedBy('Signature (key in the file)'),
    files: resigned(T, {
      manifest: (m) => {
        m.signature = null;
      },
    }),
  },
];

const DEVELOPMENT: Def[] = [
  {
    id: 'dev-signed-by-untrusted-key',
    description: 'A DEV_SIGNED package signed by a key no device trusts.',
    ...refusedBy('Signature (trusted key)'),
    files: async (c) => ({ package: await forge(c.parts(D), { signer: c.key('untrusted') }) }),
  },
  {
    id: 'dev-signed-payload-changed',
    description: 'A DEV_SIGNED package with one payload byte changed: a development device refuses it too.',
    ...refusedBy('Payload SHA-256'),
    files: edited(D, (x) =>
      editBlob(x, 'payload', (b) => Buffer.concat([Buffer.of(b[0]! ^ 1), b.subarray(1)])),
    ),
  },
  {
    id: 'dev-unsigned-payload-changed',
    description: 'A DEV_UNSIGNED package with one payload byte changed: its digest still binds it.',
    ...refusedBy('Payload SHA-256'),
    files: edited('dev-unsigned-patch', (x) =>
      editBlob(x, 'payload', (b) => Buffer.concat([Buffer.of(b[0]! ^ 1), b.subarray(1)])),
    ),
  },
  {
    id: 'dev-signed-header-type-release',
    description:
      'A DEV_SIGNED package whose header Type says RELEASE_SIGNED (3), re-signed by the development key (§7 rule 3).',
    ...refusedBy('Header describes this package'),
    files: async (c) => ({
      package: await forge(c.parts(D), {
        signer: c.key('dev'),
        headerBytes: withCrc(c.parts(D).headerBytes, (h) => h.writeUInt8(3, 16)),
      }),
    }),
  },
  {
    id: 'dev-signed-stage-release',
    description:
      'A DEV_SIGNED package whose manifest stage says RELEASE, re-signed by the development key (§7 rule 3).',
    ...refusedBy('Header describes this package'),
    files: async (c: BuildContext) => ({
      package: await forge(c.parts(D), {
        signer: c.key('dev'),
        manifest: (m) => {
          m.package.stage = 'RELEASE';
        },
      }),
    }),
  },
  {
    id: 'dev-signed-model-legacy-style',
    description:
      'A DEV_SIGNED model signed by the release key, as before the two keys: development devices only (§6).',
    ...developmentOnly('Device policy'),
    files: async (c) => ({ package: await forge(c.parts('dev-signed-model'), { signer: c.key('release') }) }),
  },
];

export const SIGNATURE_VECTORS: VectorDef[] = [
  ...inCategory('signature-and-keys', SIGNATURES),
  ...inCategory('forgery', FORGERIES),
  ...inCategory('development-in-the-field', DEVELOPMENT),
];
