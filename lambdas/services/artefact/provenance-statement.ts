import { createHash, createPublicKey, verify } from 'node:crypto';
import {
  type ProvenanceRecord,
  provenanceText,
  type SbomFormat,
  type SbomSummary,
} from '../../../shared/api/contracts/provenance';
import type { DsseEnvelope } from '../../../shared/api/contracts/provenance-statement';
import { isHighS } from '../../../shared/domain/ecdsa-low-s';
import { ConflictError } from '../../../shared/domain/errors';
import type { Signer } from '../../ports/signer';
import type { PackageManifest, PersonRecord } from './xml-format';

/**
 * The provenance statement (decisions 279–282, docs/package-format.md "Provenance statement
 * (sidecar)"): an in-toto Statement v1 whose subjects are the package's signed manifest and its payload
 * and whose predicate carries the build provenance and the SBOM's pin, signed at generation by the portal
 * key in a DSSE envelope. The package XML and its manifest are unchanged (format version 1): a device that
 * ignores provenance sees nothing new. Written for every signed package ("null" when there is none).
 */

export type { DsseEnvelope };

/** The predicate type and the statement's format id. */
export const STATEMENT_FORMAT = 'firmware-release-portal/provenance-statement/1';
/** in-toto Statement v1 */
export const IN_TOTO_STATEMENT = 'https://in-toto.io/Statement/v1';
/** The DSSE payload type of an in-toto statement. */
export const STATEMENT_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
/** Subject name of the package's manifest (the bytes the XML's signature covers). */
export const MANIFEST_SUBJECT = 'manifest';

export interface StatementSbom {
  format: SbomFormat;
  specVersion: string;
  componentCount: number;
  sizeBytes: number;
  sha256: string;
}

/** The statement, in its one form (the keys in this order; see `statementBytes`). */
export interface ProvenanceStatement {
  _type: typeof IN_TOTO_STATEMENT;
  subject: Array<{ name: string; digest: { sha256: string } }>;
  predicateType: typeof STATEMENT_FORMAT;
  predicate: {
    package: { id: string; name: string; type: string; stage: string };
    payload: { fileName: string; size: number; sha256: string };
    provenance: ProvenanceRecord | null;
    sbom: StatementSbom | null;
    signature: { algorithm: string; keyId: string; signedBy: PersonRecord; signedAt: string };
  };
}

const sha256Hex = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

/**
 * The statement with every object's keys in the documented order and no others (its one form,
 * docs/package-format.md §11.2): what the builder writes and what a verifier compares a statement with.
 */
export function inDocumentedOrder(s: ProvenanceStatement): ProvenanceStatement {
  const { package: pk, payload: pl, provenance: p, sbom: b, signature: sg } = s.predicate;
  return {
    _type: s._type,
    subject: s.subject.map((x) => ({ name: x.name, digest: { sha256: x.digest.sha256 } })),
    predicateType: s.predicateType,
    predicate: {
      package: { id: pk.id, name: pk.name, type: pk.type, stage: pk.stage },
      payload: { fileName: pl.fileName, size: pl.size, sha256: pl.sha256 },
      provenance: p
        ? {
            repository: p.repository,
            commit: p.commit,
            buildId: p.buildId,
            buildUrl: p.buildUrl,
            builder: p.builder,
            sha256: p.sha256,
          }
        : null,
      sbom: b
        ? {
            format: b.format,
            specVersion: b.specVersion,
            componentCount: b.componentCount,
            sizeBytes: b.sizeBytes,
            sha256: b.sha256,
          }
        : null,
      signature: signatureRecordOf(sg),
    },
  };
}

/**
 * The package's signature record as the statement carries it: the manifest's `signature` without its
 * `meaning`, keys in order (a verifier compares the two byte for byte).
 */
export function signatureRecordOf(
  sg: ProvenanceStatement['predicate']['signature'],
): ProvenanceStatement['predicate']['signature'] {
  const by = sg.signedBy;
  return {
    algorithm: sg.algorithm,
    keyId: sg.keyId,
    signedBy: { id: by.id, name: by.name, email: by.email, role: by.role },
    signedAt: sg.signedAt,
  };
}

/** The statement of a signed package, built from its manifest, in its one form. */
export function buildStatement(input: {
  manifest: PackageManifest;
  manifestSha256: string;
  provenance?: ProvenanceRecord | null;
  sbom?: SbomSummary | StatementSbom | null;
}): ProvenanceStatement {
  const { manifest: m } = input;
  if (!m.signature) throw new Error('A provenance statement is written for signed packages only');
  return inDocumentedOrder({
    _type: IN_TOTO_STATEMENT,
    subject: [
      { name: MANIFEST_SUBJECT, digest: { sha256: input.manifestSha256 } },
      { name: m.payload.fileName, digest: { sha256: m.payload.sha256 } },
    ],
    predicateType: STATEMENT_FORMAT,
    predicate: {
      package: m.package,
      payload: m.payload,
      provenance: input.provenance ?? null,
      sbom: input.sbom ?? null,
      signature: m.signature,
    },
  });
}

/** The statement's bytes: compact JSON (no spaces), UTF-8, keys in the documented order. */
export const statementBytes = (s: ProvenanceStatement): Uint8Array =>
  new TextEncoder().encode(JSON.stringify(s));

/** DSSE's pre-authentication encoding: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body (LEN: decimal bytes). */
export function pae(payloadType: string, body: Uint8Array): Uint8Array {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${type.length} `, 'utf8'),
    type,
    Buffer.from(` ${body.length} `, 'utf8'),
    body,
  ]);
}

/**
 * Signs the statement with the package signer (ECDSA P-256 over SHA-256 of PAE, DER, low-S), checks the
 * signature with the signer's public key like the package's, and answers the envelope.
 */
export async function signStatement(statement: ProvenanceStatement, signer: Signer): Promise<DsseEnvelope> {
  const body = statementBytes(statement);
  const signed = pae(STATEMENT_PAYLOAD_TYPE, body);
  const sig = await signer.sign(createHash('sha256').update(signed).digest());
  const key = createPublicKey(await signer.publicKeyPem());
  if (!verify('sha256', signed, { key, dsaEncoding: 'der' }, sig))
    throw new Error(`The statement's signature from key ${signer.keyId} does not verify with its public key`);
  if (isHighS(sig)) throw new Error(`The statement's signature from key ${signer.keyId} is high-S`);
  return {
    payloadType: STATEMENT_PAYLOAD_TYPE,
    payload: Buffer.from(body).toString('base64'),
    signatures: [{ keyid: signer.keyId, sig: Buffer.from(sig).toString('base64') }],
  };
}

/**
 * The envelope file in its one form (docs/package-format.md §11.1): one line of compact JSON, keys in
 * order, then exactly one LF. What the portal stores and serves, and what a verifier compares with.
 */
export const envelopeText = (e: DsseEnvelope): string =>
  `${JSON.stringify({
    payloadType: e.payloadType,
    payload: e.payload,
    signatures: e.signatures.map((x) => ({ keyid: x.keyid, sig: x.sig })),
  })}\n`;

/** Where the statement of the XML stored at `xmlKey` is kept (the artefacts bucket, beside it). */
export const statementKeyOf = (xmlKey: string): string =>
  `${xmlKey.replace(/\.xml$/, '')}.provenance-statement.json`;

/** Why generation refuses an SBOM or a provenance record (decision 280). */
export const SBOM_PIN_ERR = {
  missing: (resourceName: string) =>
    `The SBOM of resource ${resourceName} is missing from storage; nothing was signed`,
  differs: (got: { sizeBytes: number; sha256: string }, pinned: { sizeBytes: number; sha256: string }) =>
    `The SBOM is not the one reviewed: it is ${got.sizeBytes} bytes with SHA-256 ${got.sha256}, not ${pinned.sizeBytes} bytes with SHA-256 ${pinned.sha256} as recorded at upload`,
  provenance: (got: string, pinned: string) =>
    `The build provenance is not the one reviewed: its SHA-256 is ${got}, not ${pinned} as recorded at upload`,
};

/**
 * Refuses an SBOM whose stored bytes are not the pinned ones; nothing is built or signed. A ConflictError,
 * so the failed generation shows its words (generation-failure.ts `userReason`).
 */
export function checkSbomPin(
  got: { sizeBytes: number; sha256: string },
  pinned: Pick<SbomSummary, 'sizeBytes' | 'sha256'>,
): void {
  if (got.sizeBytes !== pinned.sizeBytes || got.sha256 !== pinned.sha256.toLowerCase())
    throw new ConflictError(SBOM_PIN_ERR.differs(got, pinned));
}

/** Refuses a provenance record whose fields no longer hash to its recorded SHA-256. */
export function checkProvenancePin(p: ProvenanceRecord): void {
  const got = sha256Hex(provenanceText(p));
  if (got !== p.sha256.toLowerCase()) throw new ConflictError(SBOM_PIN_ERR.provenance(got, p.sha256));
}
