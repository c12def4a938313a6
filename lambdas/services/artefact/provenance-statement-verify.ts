import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import * as z from 'zod';
import { provenanceText, SBOM_FORMATS } from '../../../shared/api/contracts/provenance';
import { isHighS } from '../../../shared/domain/ecdsa-low-s';
import { checkSbom } from '../../../shared/domain/sbom';
import {
  envelopeText,
  IN_TOTO_STATEMENT,
  inDocumentedOrder,
  MANIFEST_SUBJECT,
  type ProvenanceStatement,
  pae,
  STATEMENT_FORMAT,
  STATEMENT_PAYLOAD_TYPE,
  signatureRecordOf,
} from './provenance-statement';
import type { PackageManifest } from './xml-format';
import type { VerifyCheck } from './xml-verify-context';

/**
 * Checks a provenance statement (docs/package-format.md §11) against the package it claims to describe,
 * offline, as strictly as the manifest (decision 297): the file is the envelope's one form and one LF,
 * with exactly one signature; the signature verifies with a trusted key (P-256, SHA-256 over PAE, DER,
 * low-S); the statement is its one form; its subjects are this package's manifest and payload; its key id
 * and signature record are the package's; and, given the SBOM file, the file is the one pinned. Never
 * throws for a bad statement: every failure is a check naming what differs.
 */

export interface StatementVerifyInput {
  /** the envelope file's text */
  envelopeText: string;
  /** the trusted keys (PEM): the key that verified the package's signature, when one did */
  trustedKeyPems: readonly string[];
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
const issues = (e: z.ZodError) => e.issues.map((i) => `${i.path.join('.') || 'it'}: ${i.message}`).join('; ');

/** Strict base64 (the standard alphabet, padded): what the portal writes, and nothing else. */
function decodeStrictBase64(s: string, what: string): Buffer {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) throw new Error(`${what} is not base64`);
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

const envelopeSchema = z.strictObject({
  payloadType: z.literal(STATEMENT_PAYLOAD_TYPE),
  payload: z.string(),
  signatures: z
    .array(z.strictObject({ keyid: z.string(), sig: z.string() }))
    .length(1, { error: 'there must be exactly one signature' }),
});

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const person = z.strictObject({ id: z.string(), name: z.string(), email: z.string(), role: z.string() });
const statementSchema = z.strictObject({
  _type: z.literal(IN_TOTO_STATEMENT),
  subject: z.array(z.strictObject({ name: z.string(), digest: z.strictObject({ sha256: hex64 }) })).length(2),
  predicateType: z.literal(STATEMENT_FORMAT),
  predicate: z.strictObject({
    package: z.strictObject({ id: z.string(), name: z.string(), type: z.string(), stage: z.string() }),
    payload: z.strictObject({ fileName: z.string(), size: count, sha256: hex64 }),
    provenance: z
      .strictObject({
        repository: z.string(),
        commit: z.string(),
        buildId: z.string(),
        buildUrl: z.string(),
        builder: z.string(),
        sha256: hex64,
      })
      .nullable(),
    sbom: z
      .strictObject({
        format: z.enum(SBOM_FORMATS),
        specVersion: z.string(),
        componentCount: count,
        sizeBytes: count,
        sha256: hex64,
      })
      .nullable(),
    signature: z.strictObject({
      algorithm: z.string(),
      keyId: z.string(),
      signedBy: person,
      signedAt: z.string(),
    }),
  }),
});

/** What a file that is not exactly one line and one LF ends with, for the refusal. */
function lineProblem(text: string): string | undefined {
  const lf = text.split('\n').length - 1;
  if (text.includes('\r')) return 'it holds a carriage return';
  if (lf === 0) return 'it does not end with a line feed';
  if (lf > 1) return `it holds ${lf} line feeds`;
  return text.endsWith('\n') ? undefined : 'the line feed is not its last byte';
}

/** Verifies the statement; see StatementVerifyInput. */
export function verifyStatement(input: StatementVerifyInput): StatementVerifyResult {
  const checks: VerifyCheck[] = [];
  const warnings: string[] = [];
  const check = (name: string, ok: boolean, detail: string) => {
    checks.push({ name, ok, detail });
    return ok;
  };

  // 1. the envelope, in its one form: one line of compact JSON, keys in order, then exactly one LF
  let body: Buffer;
  let sig: Buffer;
  let keyid: string;
  try {
    let parsed: unknown;
    try {
      parsed = JSON.parse(input.envelopeText);
    } catch {
      throw new Error('it is not JSON');
    }
    const type = (parsed as { payloadType?: unknown } | null)?.payloadType;
    if (type !== STATEMENT_PAYLOAD_TYPE)
      throw new Error(`payloadType is ${JSON.stringify(type ?? null)}, not ${STATEMENT_PAYLOAD_TYPE}`);
    const e = envelopeSchema.safeParse(parsed);
    if (!e.success) throw new Error(issues(e.error));
    body = decodeStrictBase64(e.data.payload, 'payload');
    sig = decodeStrictBase64(e.data.signatures[0]!.sig, 'signatures[0].sig');
    keyid = e.data.signatures[0]!.keyid;
    const problem = lineProblem(input.envelopeText);
    const oneForm = envelopeText(e.data) === input.envelopeText;
    check(
      'Statement envelope',
      oneForm,
      oneForm
        ? `DSSE, ${STATEMENT_PAYLOAD_TYPE}, ${body.length} bytes of statement, one signature, key ${keyid}`
        : problem
          ? `the file must be the envelope on one line followed by exactly one LF: ${problem}`
          : 'the envelope is not in its one form: compact JSON (no white space), keys payloadType, payload, signatures (keyid, sig) in this order',
    );
  } catch (e) {
    check('Statement envelope', false, `the statement file is not a DSSE envelope: ${message(e)}`);
    return { checks, warnings };
  }

  // 2. the signature, with a trusted key only (the envelope carries none)
  const signedOk = (() => {
    const name = 'Statement signature (trusted key)';
    let keys: KeyObject[];
    try {
      keys = input.trustedKeyPems.map((pem) => createPublicKey(pem));
    } catch (e) {
      return check(name, false, `a trusted key cannot be read: ${message(e)}`);
    }
    try {
      if (isHighS(sig))
        return check(
          name,
          false,
          'the signature is high-S: the format accepts low-S signatures only (the high-S twin of a signature is refused)',
        );
    } catch (e) {
      return check(name, false, `the signature is not DER ECDSA: ${message(e)}`);
    }
    const signed = pae(STATEMENT_PAYLOAD_TYPE, body);
    const ok = keys.some((k) => verifyWith(k, signed, sig));
    return check(
      name,
      ok,
      ok
        ? `ECDSA P-256 SHA-256 over PAE verifies with the ${keys.length === 1 ? 'trusted key' : 'a trusted key'} (key id ${keyid})`
        : `the signature does not verify with the trusted key${keys.length === 1 ? '' : 's'}: the statement was changed, or signed by another key`,
    );
  })();

  // 3. the statement's one form: compact JSON, the documented keys in the documented order
  let statement: ProvenanceStatement;
  try {
    const json = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
    const parsed = statementSchema.safeParse(JSON.parse(json));
    if (!parsed.success) throw new Error(issues(parsed.error));
    statement = parsed.data as ProvenanceStatement;
    if (JSON.stringify(inDocumentedOrder(statement)) !== json)
      throw new Error('it is not in its one form (compact JSON, keys in the documented order)');
    check('Statement form', true, `${STATEMENT_FORMAT}, an in-toto Statement v1`);
  } catch (e) {
    check('Statement form', false, `the statement cannot be read: ${message(e)}`);
    return { checks, warnings };
  }
  const pr = statement.predicate;

  // 4. it describes this package: its manifest bytes (the binding), its payload, its signer
  const m = input.manifest;
  if (!m) {
    check(
      'Statement binds this package',
      false,
      "the package's manifest could not be read, so nothing binds the statement to it",
    );
  } else {
    checkBinding(check, statement, m);
    checkSigner(check, statement, keyid, m);
  }

  // 5. the provenance record is the one pinned (its fields hash to its recorded SHA-256)
  if (pr.provenance) {
    const p = pr.provenance;
    const got = sha256Hex(provenanceText(p));
    check(
      'Statement provenance',
      got === p.sha256,
      got === p.sha256
        ? `${p.repository} at ${p.commit}, build ${p.buildId} (${p.buildUrl}) by ${p.builder}`
        : `the provenance fields hash to ${got}, not ${p.sha256} as recorded`,
    );
  } else warnings.push('The statement records no build provenance for this package');

  // 6. the SBOM file, when given
  checkSbomFile(check, warnings, pr.sbom, input.sbom);

  if (!signedOk) warnings.push('Nothing the statement says can be trusted: its signature failed');
  return { checks, warnings, statement };
}

type Check = (name: string, ok: boolean, detail: string) => boolean;

/** The statement's subjects and package are this package's manifest, package and payload. */
function checkBinding(check: Check, statement: ProvenanceStatement, m: PackageManifest): void {
  const pr = statement.predicate;
  const manifestSha256 = sha256Hex(JSON.stringify(m));
  const subject = statement.subject[0]!;
  const differs: string[] = [];
  if (subject.name !== MANIFEST_SUBJECT || subject.digest.sha256 !== manifestSha256)
    differs.push(
      `the statement is for manifest SHA-256 ${subject.digest.sha256}, this package's manifest has SHA-256 ${manifestSha256}`,
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
  const payloadSubject = statement.subject[1]!;
  const payloadDiffers: string[] = [];
  if (payloadSubject.name !== m.payload.fileName || pr.payload.fileName !== m.payload.fileName)
    payloadDiffers.push(
      `file name ${JSON.stringify(pr.payload.fileName)} in the statement, ${JSON.stringify(m.payload.fileName)} in the package`,
    );
  if (payloadSubject.digest.sha256 !== m.payload.sha256 || pr.payload.sha256 !== m.payload.sha256)
    payloadDiffers.push(
      `SHA-256 ${payloadSubject.digest.sha256} in the statement, ${m.payload.sha256} in the package`,
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

/**
 * The envelope's key id and the statement's signature record are the package's (§11.1, §11.2): a statement
 * validly signed but naming another signer, or another key, is not this package's statement.
 */
function checkSigner(check: Check, statement: ProvenanceStatement, keyid: string, m: PackageManifest): void {
  if (!m.signature) {
    check(
      'Statement signer',
      false,
      `a ${m.package.type} package is unsigned: it has no provenance statement`,
    );
    return;
  }
  const problems: string[] = [];
  if (keyid !== m.signature.keyId)
    problems.push(
      `the envelope's keyid is ${JSON.stringify(keyid)}, the package's key id is ${JSON.stringify(m.signature.keyId)}`,
    );
  const got = JSON.stringify(statement.predicate.signature);
  const want = JSON.stringify(signatureRecordOf(m.signature));
  if (got !== want)
    problems.push(
      `predicate.signature is ${got}, the package's signature record (without its meaning) is ${want}`,
    );
  check(
    'Statement signer',
    problems.length === 0,
    problems.join('; ') ||
      `key ${keyid}, signed by ${m.signature.signedBy.name} (${m.signature.signedBy.role}) at ${m.signature.signedAt}, as the package`,
  );
}

/** The SBOM file given: the bytes the statement pins, and the format, version and count it states. */
function checkSbomFile(
  check: Check,
  warnings: string[],
  s: ProvenanceStatement['predicate']['sbom'],
  file: StatementVerifyInput['sbom'],
): void {
  if (!file) {
    warnings.push(
      s
        ? `The statement pins an SBOM (${s.format} ${s.specVersion}, ${s.sizeBytes} bytes, SHA-256 ${s.sha256}); give it with --sbom to check the file`
        : 'The statement records no SBOM for this package',
    );
    return;
  }
  const got = { sizeBytes: file.bytes.length, sha256: sha256Hex(file.bytes) };
  if (!s) {
    check('SBOM', false, `the statement records no SBOM, but ${file.name} was given`);
    return;
  }
  if (got.sha256 !== s.sha256 || got.sizeBytes !== s.sizeBytes) {
    check(
      'SBOM',
      false,
      `${file.name} is not the SBOM the statement pins: it is ${got.sizeBytes} bytes with SHA-256 ${got.sha256}, not ${s.sizeBytes} bytes with SHA-256 ${s.sha256}`,
    );
    return;
  }
  // the summary is derived from the file (docs/package-format.md §11.2): the portal's own reading of it
  let summary: string;
  try {
    const c = checkSbom(Buffer.from(file.bytes).toString('utf8'));
    summary = `${c.format} ${c.specVersion}, ${c.componentCount} components`;
  } catch (e) {
    summary = `unreadable (${message(e)})`;
  }
  const stated = `${s.format} ${s.specVersion}, ${s.componentCount} components`;
  check(
    'SBOM',
    summary === stated,
    summary === stated
      ? `${file.name}: ${stated}, ${s.sizeBytes} bytes, SHA-256 ${s.sha256}`
      : `${file.name} has the pinned bytes, but reads as ${summary}, while the statement says ${stated}`,
  );
}
