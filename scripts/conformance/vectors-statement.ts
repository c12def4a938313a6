import { SBOM_FILES } from './bases';
import { forgeStatement } from './forge';
import { type BuildContext, type Def, inCategory, refusedBy, type VectorDef } from './vector';
import { T } from './vectors-package';

/**
 * Provenance statements (§11) as strict as the manifest: the file's one form, the envelope's, exactly one
 * signature by the package's key, the statement's one form, the binding to the package and its signer;
 * and the SBOM file against the pin. Each is checked beside the real release package it claims.
 */

const PLAIN = 'release-signed-patch-plain';

/** T with a statement file made by `statement` (from T's real one), and T's SBOM file. */
const withStatement =
  (statement: (envelope: string, c: BuildContext) => string | Promise<string>, sbom = true) =>
  async (c: BuildContext) => ({
    package: { base: T },
    statement: await statement(c.base(T).statement!, c),
    ...(sbom ? { sbom: 'CycloneDX' as const } : {}),
  });
/** T's statement with its statement JSON edited and signed again by the release key. */
const resignedStatement = (edit: (json: string) => string) =>
  withStatement((e, c) => forgeStatement(e, { signer: c.key('release'), edit }));

const STATEMENT: Def[] = [
  {
    id: 'statement-extra-line-feed',
    description: 'The statement file followed by a second LF (§11.1: exactly one).',
    ...refusedBy('Statement envelope'),
    files: withStatement((e) => `${e}\n`),
  },
  {
    id: 'statement-no-line-feed',
    description: 'The statement file without its final LF.',
    ...refusedBy('Statement envelope'),
    files: withStatement((e) => e.slice(0, -1)),
  },
  {
    id: 'statement-crlf',
    description: 'The statement file ending with CR LF.',
    ...refusedBy('Statement envelope'),
    files: withStatement((e) => `${e.slice(0, -1)}\r\n`),
  },
  {
    id: 'statement-envelope-not-compact',
    description: 'A space in the envelope JSON (§11.1: compact).',
    ...refusedBy('Statement envelope'),
    files: withStatement((e) => e.replace('","signatures":', '", "signatures":')),
  },
  {
    id: 'statement-envelope-keys-reordered',
    description: 'The envelope keys in another order (payload before payloadType).',
    ...refusedBy('Statement envelope'),
    files: withStatement((e) => {
      const o = JSON.parse(e);
      return `${JSON.stringify({ payload: o.payload, payloadType: o.payloadType, signatures: o.signatures })}\n`;
    }),
  },
  {
    id: 'statement-two-signatures',
    description: 'Two signatures in the envelope, the second by an untrusted key (§11.1: exactly one).',
    ...refusedBy('Statement envelope'),
    files: withStatement(async (e, c) => {
      const other = JSON.parse(await forgeStatement(e, { signer: c.key('untrusted') }));
      const o = JSON.parse(e);
      return `${JSON.stringify({ ...o, signatures: [...o.signatures, ...other.signatures] })}\n`;
    }),
  },
  {
    id: 'statement-payload-type-changed',
    description: 'payloadType application/json instead of application/vnd.in-toto+json.',
    ...refusedBy('Statement envelope'),
    files: withStatement((e) => e.replace('application/vnd.in-toto+json', 'application/json')),
  },
  {
    id: 'statement-keyid-differs',
    description: "The envelope's keyid is not the package's key id (§11.1).",
    ...refusedBy('Statement signer'),
    files: withStatement((e) =>
      e.replace(/"keyid":"local-p256-[0-9a-f]{16}"/, '"keyid":"local-p256-0000000000000000"'),
    ),
  },
  {
    id: 'statement-keys-reordered',
    description: 'The statement keys in another order, validly signed by the release key (§11.2).',
    ...refusedBy('Statement form'),
    files: resignedStatement((j) => {
      const o = JSON.parse(j);
      return JSON.stringify({
        subject: o.subject,
        _type: o._type,
        predicateType: o.predicateType,
        predicate: o.predicate,
      });
    }),
  },
  {
    id: 'statement-not-compact',
    description: 'The statement with white space, validly signed by the release key (§11.2).',
    ...refusedBy('Statement form'),
    files: resignedStatement((j) => JSON.stringify(JSON.parse(j), null, 1)),
  },
  {
    id: 'statement-extra-key',
    description: 'A key the statement does not have (predicate.comment), validly signed (§11.2).',
    ...refusedBy('Statement form'),
    files: resignedStatement((j) => j.replace('"predicate":{', '"predicate":{"comment":"extra",')),
  },
  {
    id: 'statement-other-signer',
    description:
      "A validly signed statement whose predicate.signature names another signer than the package's signature record (§11.2).",
    ...refusedBy('Statement signer'),
    files: resignedStatement((j) => j.replace('"name":"Sam Signer"', '"name":"Eve Signer"')),
  },
  {
    id: 'statement-of-another-package',
    description: "Another package's statement, validly signed by the same key.",
    ...refusedBy('Statement binds this package'),
    files: withStatement((_e, c) => c.base(PLAIN).statement!, false),
  },
  {
    id: 'statement-signed-by-dev-key',
    description:
      "A release package's statement signed by the development key (the package's keyid kept): the statement's key is the package's (§11.1).",
    ...refusedBy('Statement signature (trusted key)'),
    files: withStatement((e, c) => forgeStatement(e, { signer: c.key('dev') })),
  },
  {
    id: 'statement-high-s',
    description: 'The high-S twin of the statement signature.',
    ...refusedBy('Statement signature (trusted key)'),
    files: withStatement((e, c) => forgeStatement(e, { signer: c.key('release'), highS: true })),
  },
  {
    id: 'statement-byte-changed',
    description: 'One byte of the statement changed, the signature kept.',
    ...refusedBy('Statement signature (trusted key)'),
    files: withStatement((e) => {
      const o = JSON.parse(e);
      const body = Buffer.from(o.payload, 'base64')
        .toString()
        .replace('"buildId":"2026.04.7"', '"buildId":"2026.04.8"');
      return `${JSON.stringify({ ...o, payload: Buffer.from(body).toString('base64') })}\n`;
    }, false),
  },
  {
    id: 'statement-provenance-digest-wrong',
    description: 'A provenance record whose fields do not hash to its sha256, validly signed (§11.2).',
    ...refusedBy('Statement provenance'),
    files: resignedStatement((j) =>
      j.replace('"builder":"ci.example.com runner 4"', '"builder":"ci.example.com runner 5"'),
    ),
  },
  {
    id: 'statement-for-unsigned-package',
    description: "A signed package's statement beside an unsigned package: an unsigned package has none.",
    ...refusedBy('Statement signer'),
    files: async (c) => ({ package: { base: 'release-unsigned-patch' }, statement: c.base(T).statement! }),
  },
];

const SBOM: Def[] = [
  {
    id: 'sbom-byte-changed',
    description: 'The SBOM file with one byte changed: not the one the statement pins.',
    ...refusedBy('SBOM'),
    files: async () => ({
      package: { base: T },
      statement: { base: T },
      sbom: Buffer.from(SBOM_FILES.CycloneDX.toString().replace('3.6.2', '3.6.3')),
    }),
  },
  {
    id: 'sbom-trailing-line-feed',
    description: 'The SBOM file with one more LF at its end.',
    ...refusedBy('SBOM'),
    files: async () => ({
      package: { base: T },
      statement: { base: T },
      sbom: Buffer.concat([SBOM_FILES.CycloneDX, Buffer.from('\n')]),
    }),
  },
  {
    id: 'sbom-other-format',
    description: 'An SPDX file given for a statement that pins a CycloneDX one.',
    ...refusedBy('SBOM'),
    files: async () => ({ package: { base: T }, statement: { base: T }, sbom: 'SPDX' as const }),
  },
  {
    id: 'sbom-not-pinned',
    description: 'An SBOM file given for a statement that pins none.',
    ...refusedBy('SBOM'),
    files: async () => ({ package: { base: PLAIN }, statement: { base: PLAIN }, sbom: 'CycloneDX' as const }),
  },
  {
    id: 'sbom-component-count-wrong',
    description:
      "A statement whose componentCount is not the file's (3: nested components count), validly signed (§11.2).",
    ...refusedBy('SBOM'),
    files: resignedStatement((j) => j.replace('"componentCount":3', '"componentCount":2')),
  },
  {
    id: 'sbom-spec-version-wrong',
    description: "A statement whose specVersion is not the file's, validly signed (§11.2).",
    ...refusedBy('SBOM'),
    files: resignedStatement((j) => j.replace('"specVersion":"1.5"', '"specVersion":"1.6"')),
  },
];

export const STATEMENT_VECTORS: VectorDef[] = [
  ...inCategory('statement', STATEMENT),
  ...inCategory('sbom', SBOM),
];
