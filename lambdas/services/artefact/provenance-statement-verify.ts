import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import { provenanceText } from '../../../shared/api/contracts/provenance';
import { isHighS } from '../../../shared/domain/ecdsa-low-s';
import {
  IN_TOTO_STATEMENT,
  MANIFEST_SUBJECT,
  type ProvenanceStatement,
  pae,
  STATEMENT_FORMAT,
  STATEMENT_PAYLOAD_TYPE,
} from './provenance-statement';
import type { PackageManifest } from './xml-format';
import type { VerifyCheck } from './xml-verify-context';

/**
 * Checks a provenance statement (docs/package-format.md "Provenance statement (sidecar)") against the
 * package it claims to describe, offline: the DSSE envelope, its signature with the trusted portal key
 * (P-256, SHA-256 over PAE, DER, low-S only: node's crypto, like the package's signature), that its
 * subjects are this package's manifest and payload, and, given the SBOM file, that the file is the one
 * pinned. Never throws for a bad statement: every failure is a check naming what differs.
 */

export interface StatementVerifyInput {
  /** the envelope file's text */
  envelopeText: string;
  /** the portal's public key (PEM), the one the package must be signed with */
  trustedKeyPem: string;
  /** the package's manifest as the verifier read it (absent when the XML could not be read) */
  manifest?: PackageManifest;
  /** the SBOM file's bytes, when one is given to check */
  sbom?: { name: string; bytes: Uint8Array };
}

export interface StatementVerifyResult {
  checks: VerifyCheck[];
  warnings: string[];
  statement?: ProvenanceStatement;
}

const sha256Hex = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/** Strict base64 (the standard alphabet, padded): what the portal writes, and nothing else. */
function decodeStrictBase64(s: unknown, what: string): Buffer {
  if (typeof s !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0)
    throw new Error(`${what} is not base64`);
  const b = Buffer.from(s, 'base64');
  if (b.toString('base64') !== s) throw new Error(`${what} is not canonical base64`);
  return b;
}

function verifyWith(key: KeyObject, data: Uint8Array, sig: Uint8Array): boolean {
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') return false;
  try {
    return verify('sha256', data, { key, dsaEncoding: 'der' }, sig);
  } catch {
    return false;
  }
}

/** The statement's shape: the in-toto layout and the fields the predicate must carry. */
function statementOf(json: string): ProvenanceStatement {
  const s: unknown = JSON.parse(json);
  if (!isObject(s)) throw new Error('the payload is not a JSON object');
  if (s._type !== IN_TOTO_STATEMENT)
    throw new Error(`_type is ${JSON.stringify(s._type)}, not ${IN_TOTO_STATEMENT}`);
  if (s.predicateType !== STATEMENT_FORMAT)
    throw new Error(`predicateType is ${JSON.stringify(s.predicateType)}, not ${STATEMENT_FORMAT}`);
  if (!Array.isArray(s.subject) || s.subject.length !== 2) throw new Error('subject must list 2 entries');
  const p = s.predicate;
  if (!isObject(p) || !isObject(p.package) || !isObject(p.payload) || !isObject(p.signature))
    throw new Error('predicate must carry package, payload and signature');
  if (p.provenance !== null && !isObject(p.provenance))
    throw new Error('predicate.provenance must be an object or null');
  if (p.sbom !== null && !isObject(p.sbom)) throw new Error('predicate.sbom must be an object or null');
  return s as unknown as ProvenanceStatement;
}

/** Verifies the statement; see StatementVerifyInput. */
export function verifyStatement(input: StatementVerifyInput): StatementVerifyResult {
  const checks: VerifyCheck[] = [];
  const warnings: string[] = [];
  const check = (name: string, ok: boolean, detail: string) => {
    checks.push({ name, ok, detail });
    return ok;
  };

  // 1. the envelope
  let body: Buffer;
  let sig: Buffer;
  let keyid: string;
  try {
    const e: unknown = JSON.parse(input.envelopeText);
    if (!isObject(e)) throw new Error('it is not a JSON object');
    if (e.payloadType !== STATEMENT_PAYLOAD_TYPE)
      throw new Error(`payloadType is ${JSON.stringify(e.payloadType)}, not ${STATEMENT_PAYLOAD_TYPE}`);
    if (!Array.isArray(e.signatures) || e.signatures.length !== 1 || !isObject(e.signatures[0]))
      throw new Error('it must carry exactly one signature');
    body = decodeStrictBase64(e.payload, 'payload');
    sig = decodeStrictBase64(e.signatures[0].sig, 'signatures[0].sig');
    keyid = String(e.signatures[0].keyid ?? '');
    check(
      'Statement envelope',
      true,
      `DSSE, ${STATEMENT_PAYLOAD_TYPE}, ${body.length} bytes of statement, key ${keyid}`,
    );
  } catch (e) {
    check('Statement envelope', false, `the statement file is not a DSSE envelope: ${message(e)}`);
    return { checks, warnings };
  }

  // 2. the signature, with the trusted key only (the envelope carries none)
  const signedOk = (() => {
    let key: KeyObject;
    try {
      key = createPublicKey(input.trustedKeyPem);
    } catch (e) {
      return check(
        'Statement signature (trusted key)',
        false,
        `the trusted key cannot be read: ${message(e)}`,
      );
    }
    try {
      if (isHighS(sig))
        return check(
          'Statement signature (trusted key)',
          false,
          'the signature is high-S: the format accepts low-S signatures only (the high-S twin of a signature is refused)',
        );
    } catch (e) {
      return check(
        'Statement signature (trusted key)',
        false,
        `the signature is not DER ECDSA: ${message(e)}`,
      );
    }
    const ok = verifyWith(key, pae(STATEMENT_PAYLOAD_TYPE, body), sig);
    return check(
      'Statement signature (trusted key)',
      ok,
      ok
        ? `ECDSA P-256 SHA-256 over PAE verifies with the trusted key (key id ${keyid})`
        : 'the signature does not verify with the trusted key: the statement was changed, or signed by another key',
    );
  })();

  // 3. the statement's form
  let statement: ProvenanceStatement;
  try {
    const json = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
    statement = statementOf(json);
    if (JSON.stringify(statement) !== json)
      throw new Error('it is not in its one form (compact JSON, keys in the documented order)');
    check('Statement form', true, `${STATEMENT_FORMAT}, an in-toto Statement v1`);
  } catch (e) {
    check('Statement form', false, `the statement cannot be read: ${message(e)}`);
    return { checks, warnings };
  }
  const pr = statement.predicate;

  // 4. it describes this package: its manifest bytes (the binding) and its payload
  const m = input.manifest;
  if (!m) {
    check(
      'Statement binds this package',
      false,
      "the package's manifest could not be read, so nothing binds the statement to it",
    );
  } else {
    const manifestSha256 = sha256Hex(JSON.stringify(m));
    const subject = statement.subject.find((x) => x.name === MANIFEST_SUBJECT);
    const differs: string[] = [];
    if (subject?.digest?.sha256 !== manifestSha256)
      differs.push(
        `the statement is for manifest SHA-256 ${subject?.digest?.sha256 ?? '(none)'}, this package's manifest has SHA-256 ${manifestSha256}`,
      );
    for (const k of ['id', 'name', 'type', 'stage'] as const)
      if (pr.package[k] !== m.package[k])
        differs.push(
          `package ${k} is ${JSON.stringify(pr.package[k])} in the statement, ${JSON.stringify(m.package[k])} in the package`,
        );
    check(
      'Statement binds this package',
      differs.length === 0,
      differs.length === 0
        ? `manifest SHA-256 ${manifestSha256}, package ${m.package.id} (${m.package.name})`
        : `it belongs to another package: ${differs.join('; ')}`,
    );
    const payloadSubject = statement.subject.find((x) => x.name !== MANIFEST_SUBJECT);
    const payloadDiffers: string[] = [];
    if (payloadSubject?.name !== m.payload.fileName || pr.payload.fileName !== m.payload.fileName)
      payloadDiffers.push(
        `file name ${JSON.stringify(pr.payload.fileName)} in the statement, ${JSON.stringify(m.payload.fileName)} in the package`,
      );
    if (payloadSubject?.digest?.sha256 !== m.payload.sha256 || pr.payload.sha256 !== m.payload.sha256)
      payloadDiffers.push(
        `SHA-256 ${payloadSubject?.digest?.sha256 ?? '(none)'} in the statement, ${m.payload.sha256} in the package`,
      );
    if (pr.payload.size !== m.payload.size)
      payloadDiffers.push(`${pr.payload.size} bytes in the statement, ${m.payload.size} in the package`);
    check(
      'Statement payload digest',
      payloadDiffers.length === 0,
      payloadDiffers.length === 0
        ? `${m.payload.fileName}, ${m.payload.size} bytes, SHA-256 ${m.payload.sha256}`
        : `the payload differs: ${payloadDiffers.join('; ')}`,
    );
  }

  // 5. the provenance record is the one pinned (its fields hash to its recorded SHA-256)
  if (pr.provenance) {
    const p = pr.provenance;
    let got = '';
    try {
      got = sha256Hex(provenanceText(p));
    } catch {
      // a record missing fields: reported as differing below
    }
    check(
      'Statement provenance',
      got === p.sha256,
      got === p.sha256
        ? `${p.repository} at ${p.commit}, build ${p.buildId} (${p.buildUrl}) by ${p.builder}`
        : `the provenance fields hash to ${got || '(unreadable)'}, not ${p.sha256} as recorded`,
    );
  } else warnings.push('The statement records no build provenance for this package');

  // 6. the SBOM file, when given
  const s = pr.sbom;
  if (input.sbom) {
    const got = { sizeBytes: input.sbom.bytes.length, sha256: sha256Hex(input.sbom.bytes) };
    if (!s) check('SBOM', false, `the statement records no SBOM, but ${input.sbom.name} was given`);
    else
      check(
        'SBOM',
        got.sha256 === s.sha256 && got.sizeBytes === s.sizeBytes,
        got.sha256 === s.sha256 && got.sizeBytes === s.sizeBytes
          ? `${input.sbom.name}: ${s.format} ${s.specVersion}, ${s.componentCount} components, ${s.sizeBytes} bytes, SHA-256 ${s.sha256}`
          : `${input.sbom.name} is not the SBOM the statement pins: it is ${got.sizeBytes} bytes with SHA-256 ${got.sha256}, not ${s.sizeBytes} bytes with SHA-256 ${s.sha256}`,
      );
  } else if (s)
    warnings.push(
      `The statement pins an SBOM (${s.format} ${s.specVersion}, ${s.sizeBytes} bytes, SHA-256 ${s.sha256}); give it with --sbom to check the file`,
    );
  else warnings.push('The statement records no SBOM for this package');

  if (!signedOk) warnings.push('Nothing the statement says can be trusted: its signature failed');
  return { checks, warnings, statement };
}
