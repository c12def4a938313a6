import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { p256 } from '@noble/curves/nist.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerify } from '../../../scripts/verify';
import type { DsseEnvelope } from '../../../shared/api/contracts/provenance-statement';
import { exampleSigner } from '../../testing/artefact/package-format.example';
import {
  EXAMPLE_PROVENANCE,
  EXAMPLE_SBOM,
  EXAMPLE_SBOM_SUMMARY,
  exampleStatement,
  manifestBytesOf,
} from '../../testing/artefact/provenance-statement.example';
import { buildSample, testSigner } from '../../testing/artefact/xml-package.fixtures';
import {
  buildStatement,
  checkProvenancePin,
  checkSbomPin,
  envelopeText,
  pae,
  SBOM_PIN_ERR,
  STATEMENT_PAYLOAD_TYPE,
  signStatement,
  statementBytes,
  statementKeyOf,
} from './provenance-statement';
import { verifyStatement } from './provenance-statement-verify';
import type { PackageManifest } from './xml-format';

/**
 * The signed provenance statement (decision 279): built from the manifest, signed in a DSSE envelope,
 * and checked offline; every tampering is refused with a check that names what differs.
 */

const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const N = p256.Point.CURVE().n;
const manifestOf = (xml: Buffer) => JSON.parse(manifestBytesOf(xml).toString('utf8')) as PackageManifest;

let ex: Awaited<ReturnType<typeof exampleStatement>>;
let exampleKey: string;
let dir: string;
beforeAll(async () => {
  ex = await exampleStatement();
  exampleKey = await exampleSigner().publicKeyPem();
  dir = mkdtempSync(join(tmpdir(), 'statement-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const envelopeOf = (text: string) => JSON.parse(text) as DsseEnvelope;
const withEnvelope = (edit: (e: DsseEnvelope) => void): string => {
  const e = envelopeOf(ex.envelope);
  edit(e);
  return `${JSON.stringify(e)}\n`;
};
const verifyExample = (envelopeText: string, sbom: Uint8Array | null = EXAMPLE_SBOM, key = exampleKey) =>
  verifyStatement({
    envelopeText,
    trustedKeyPems: [key],
    manifest: manifestOf(ex.xml),
    ...(sbom ? { sbom: { name: 'sbom.json', bytes: sbom } } : {}),
  });
const failed = (r: ReturnType<typeof verifyStatement>) => r.checks.filter((c) => !c.ok);

describe('the provenance statement', () => {
  it('is an in-toto Statement v1 about the manifest and the payload, with the provenance and the SBOM pin', () => {
    const s = JSON.parse(ex.statement.toString('utf8'));
    const manifest = manifestBytesOf(ex.xml);
    expect(s._type).toBe('https://in-toto.io/Statement/v1');
    expect(s.predicateType).toBe('firmware-release-portal/provenance-statement/1');
    expect(s.subject).toEqual([
      { name: 'manifest', digest: { sha256: sha(manifest) } },
      { name: 'apnea-detector-3.1.tflite', digest: { sha256: manifestOf(ex.xml).payload.sha256 } },
    ]);
    expect(s.predicate.provenance).toEqual(EXAMPLE_PROVENANCE);
    expect(s.predicate.sbom).toEqual({
      format: 'CycloneDX',
      specVersion: '1.5',
      componentCount: 2,
      sizeBytes: EXAMPLE_SBOM.length,
      sha256: sha(EXAMPLE_SBOM),
    });
    expect(s.predicate.signature).toMatchObject({ keyId: exampleSigner().keyId, signedBy: { id: 'u-rel' } });
    // its one form: compact JSON, the documented key order
    expect(JSON.stringify(s)).toBe(ex.statement.toString('utf8'));
  });

  it('says null when the package carries no provenance or SBOM', () => {
    const m = manifestOf(ex.xml);
    const s = buildStatement({ manifest: m, manifestSha256: sha(manifestBytesOf(ex.xml)) });
    expect([s.predicate.provenance, s.predicate.sbom]).toEqual([null, null]);
    expect(() => buildStatement({ manifest: { ...m, signature: null }, manifestSha256: 'x' })).toThrow(
      /signed packages only/,
    );
  });

  it('is signed over PAE(payloadType, statement), low-S, and verifies with openssl-compatible DER', async () => {
    const e = envelopeOf(ex.envelope);
    const body = Buffer.from(e.payload, 'base64');
    expect(Buffer.from(pae(STATEMENT_PAYLOAD_TYPE, body)).subarray(0, 40).toString()).toBe(
      `DSSEv1 28 application/vnd.in-toto+json ${body.length} `.slice(0, 40),
    );
    const sig = p256.Signature.fromBytes(Buffer.from(e.signatures[0]!.sig, 'base64'), 'der');
    expect(sig.s <= N >> 1n).toBe(true);
    // deterministic (RFC 6979): the same statement gives the same envelope
    expect((await exampleStatement()).envelope).toBe(ex.envelope);
  });

  it('is stored beside the XML', () => {
    expect(statementKeyOf('packages/p1/2026-03-02T10-00-00-000Z-Apnea.xml')).toBe(
      'packages/p1/2026-03-02T10-00-00-000Z-Apnea.provenance-statement.json',
    );
  });
});

describe('verifying a statement', () => {
  it('accepts the example with its package, the trusted key and the SBOM', () => {
    const r = verifyExample(ex.envelope);
    expect(failed(r)).toEqual([]);
    expect(r.checks.map((c) => c.name)).toEqual([
      'Statement envelope',
      'Statement signature (trusted key)',
      'Statement form',
      'Statement binds this package',
      'Statement payload digest',
      'Statement signer',
      'Statement provenance',
      'SBOM',
    ]);
  });

  it('refuses a changed byte of the statement: the signature fails', () => {
    const text = withEnvelope((e) => {
      const b = Buffer.from(e.payload, 'base64');
      e.payload = Buffer.from(b.toString().replace('"componentCount":2', '"componentCount":3')).toString(
        'base64',
      );
    });
    // without the SBOM file: with it, its component count would differ from the statement's too
    expect(failed(verifyExample(text, null)).map((c) => c.name)).toEqual([
      'Statement signature (trusted key)',
    ]);
    expect(failed(verifyExample(text, null))[0]!.detail).toMatch(/does not verify with the trusted key/);
  });

  it('refuses a changed byte of the signature and a changed payload type', () => {
    const badSig = withEnvelope((e) => {
      const b = Buffer.from(e.signatures[0]!.sig, 'base64');
      b[b.length - 1]! ^= 1;
      e.signatures[0]!.sig = b.toString('base64');
    });
    expect(failed(verifyExample(badSig))[0]!.name).toBe('Statement signature (trusted key)');
    const badType = withEnvelope((e) => {
      e.payloadType = 'application/json';
    });
    expect(failed(verifyExample(badType))[0]!.detail).toMatch(/payloadType is "application\/json"/);
  });

  it('refuses a statement signed by another key', async () => {
    const other = await signStatement(JSON.parse(ex.statement.toString()), testSigner());
    const r = verifyExample(envelopeText(other));
    // its keyid is the other key's too
    expect(failed(r).map((c) => c.name)).toEqual(['Statement signature (trusted key)', 'Statement signer']);
  });

  it('refuses the high-S twin of a valid signature', () => {
    const text = withEnvelope((e) => {
      const s = p256.Signature.fromBytes(Buffer.from(e.signatures[0]!.sig, 'base64'), 'der');
      e.signatures[0]!.sig = Buffer.from(new p256.Signature(s.r, N - s.s).toBytes('der')).toString('base64');
    });
    const f = failed(verifyExample(text));
    expect(f.map((c) => c.name)).toEqual(['Statement signature (trusted key)']);
    expect(f[0]!.detail).toMatch(/high-S/);
  });

  it("refuses another package's statement, validly signed, naming the manifest digests", async () => {
    const { xml } = await buildSample({ type: 'RELEASE_SIGNED' });
    const m = manifestOf(xml);
    const otherStatement = buildStatement({ manifest: m, manifestSha256: sha(manifestBytesOf(xml)) });
    const signed = envelopeText(await signStatement(otherStatement, exampleSigner()));
    const f = failed(verifyExample(signed, null));
    expect(f.map((c) => c.name)).toEqual([
      'Statement binds this package',
      'Statement payload digest',
      'Statement signer',
    ]);
    expect(f[0]!.detail).toContain(`the statement is for manifest SHA-256 ${sha(manifestBytesOf(xml))}`);
    expect(f[0]!.detail).toContain(`this package's manifest has SHA-256 ${sha(manifestBytesOf(ex.xml))}`);
  });

  it('refuses a swapped SBOM file, naming its size and digest against the pin', () => {
    const swapped = Buffer.from(EXAMPLE_SBOM.toString().replace('2.15.0', '2.16.0'));
    const f = failed(verifyExample(ex.envelope, swapped));
    expect(f.map((c) => c.name)).toEqual(['SBOM']);
    expect(f[0]!.detail).toBe(
      `sbom.json is not the SBOM the statement pins: it is ${swapped.length} bytes with SHA-256 ${sha(swapped)}, not ${EXAMPLE_SBOM.length} bytes with SHA-256 ${sha(EXAMPLE_SBOM)}`,
    );
  });

  it('refuses what is not an envelope, and notes an SBOM it was not given', () => {
    expect(failed(verifyExample('{"hello":1}'))[0]!.detail).toMatch(/not a DSSE envelope/);
    expect(failed(verifyExample('not json'))[0]!.name).toBe('Statement envelope');
    const r = verifyExample(ex.envelope, null);
    expect(failed(r)).toEqual([]);
    expect(r.warnings.join('\n')).toMatch(/pins an SBOM .* give it with --sbom/);
  });

  it('refuses a statement not in its one form, even when signed', async () => {
    const s = JSON.parse(ex.statement.toString());
    const spaced = Buffer.from(JSON.stringify(s, null, 1));
    const sig = await exampleSigner().sign(
      createHash('sha256').update(pae(STATEMENT_PAYLOAD_TYPE, spaced)).digest(),
    );
    const text = envelopeText({
      payloadType: STATEMENT_PAYLOAD_TYPE,
      payload: spaced.toString('base64'),
      signatures: [{ keyid: exampleSigner().keyId, sig: Buffer.from(sig).toString('base64') }],
    });
    expect(failed(verifyExample(text)).map((c) => c.name)).toEqual(['Statement form']);
  });
});

/** The example statement with its JSON edited by `edit` and signed again with the example (trusted) key. */
async function resignedStatement(edit: (statement: string) => string): Promise<string> {
  const body = Buffer.from(edit(ex.statement.toString('utf8')), 'utf8');
  const sig = await exampleSigner().sign(
    createHash('sha256').update(pae(STATEMENT_PAYLOAD_TYPE, body)).digest(),
  );
  return envelopeText({
    payloadType: STATEMENT_PAYLOAD_TYPE,
    payload: body.toString('base64'),
    signatures: [{ keyid: exampleSigner().keyId, sig: Buffer.from(sig).toString('base64') }],
  });
}

describe('the statement is as strict as the manifest: the five looser forms are refused (decision 297)', () => {
  it('refuses extra line feeds, a missing one and a carriage return after the envelope', () => {
    expect(ex.envelope.endsWith('}\n')).toBe(true);
    expect(failed(verifyExample(ex.envelope))).toEqual([]);
    for (const [text, why] of [
      [`${ex.envelope}\n`, 'it holds 2 line feeds'],
      [`${ex.envelope}\n\n`, 'it holds 3 line feeds'],
      [ex.envelope.slice(0, -1), 'it does not end with a line feed'],
      [`${ex.envelope.slice(0, -1)}\r\n`, 'it holds a carriage return'],
      [`${ex.envelope} `, 'the line feed is not its last byte'],
    ] as const) {
      const f = failed(verifyExample(text));
      expect(
        f.map((c) => c.name),
        why,
      ).toEqual(['Statement envelope']);
      expect(f[0]!.detail).toBe(
        `the file must be the envelope on one line followed by exactly one LF: ${why}`,
      );
    }
  });

  it('refuses an envelope that is not compact, or whose keys are in another order', () => {
    const e = envelopeOf(ex.envelope);
    for (const text of [
      `${JSON.stringify(e, null, 2).replace(/\n/g, ' ')}\n`,
      `${JSON.stringify({ payload: e.payload, payloadType: e.payloadType, signatures: e.signatures })}\n`,
      ex.envelope.replace('"signatures":[{"keyid"', '"signatures": [{"keyid"'),
    ]) {
      const f = failed(verifyExample(text));
      expect(f.map((c) => c.name)).toEqual(['Statement envelope']);
      expect(f[0]!.detail).toMatch(/^the envelope is not in its one form: compact JSON/);
    }
  });

  it("refuses an envelope keyid that is not the package's key id", () => {
    const text = withEnvelope((e) => {
      e.signatures[0]!.keyid = 'arn:aws:kms:eu-central-1:123456789012:key/other';
    });
    const f = failed(verifyExample(text));
    expect(f.map((c) => c.name)).toEqual(['Statement signer']);
    expect(f[0]!.detail).toBe(
      `the envelope's keyid is "arn:aws:kms:eu-central-1:123456789012:key/other", the package's key id is "${exampleSigner().keyId}"`,
    );
  });

  it('refuses a statement whose keys are in another order, though validly signed', async () => {
    const reordered = await resignedStatement((j) => {
      const s = JSON.parse(j);
      return JSON.stringify({
        subject: s.subject,
        _type: s._type,
        predicateType: s.predicateType,
        predicate: s.predicate,
      });
    });
    const f = failed(verifyExample(reordered));
    expect(f.map((c) => c.name)).toEqual(['Statement form']);
    expect(f[0]!.detail).toMatch(/not in its one form \(compact JSON, keys in the documented order\)/);
    const inner = await resignedStatement((j) =>
      j
        .replace('"signedAt":"2026-03-02T10:00:00.000Z"}}}', '"signedAt":"2026-03-02T10:00:00.000Z"}}}')
        .replace('{"format":"CycloneDX","specVersion":"1.5"', '{"specVersion":"1.5","format":"CycloneDX"'),
    );
    expect(failed(verifyExample(inner)).map((c) => c.name)).toEqual(['Statement form']);
  });

  it('refuses a validly signed statement whose predicate.signature names another signer', async () => {
    const other = await resignedStatement((j) =>
      j.replace(
        '"signedBy":{"id":"u-rel","name":"Rel Engineer"',
        '"signedBy":{"id":"u-eve","name":"Eve Engineer"',
      ),
    );
    const f = failed(verifyExample(other));
    expect(f.map((c) => c.name)).toEqual(['Statement signer']);
    expect(f[0]!.detail).toContain('predicate.signature is {"algorithm":"ECDSA_P256_SHA256"');
    expect(f[0]!.detail).toContain('"name":"Eve Engineer"');
    expect(f[0]!.detail).toContain("the package's signature record (without its meaning) is");
  });

  it('refuses more than one signature, and a statement for an unsigned package', async () => {
    const two = withEnvelope((e) => {
      e.signatures.push({ ...e.signatures[0]! });
    });
    const f = failed(verifyExample(two));
    expect(f.map((c) => c.name)).toEqual(['Statement envelope']);
    expect(f[0]!.detail).toMatch(/there must be exactly one signature/);
    const unsigned = { ...manifestOf(ex.xml), signature: null };
    const r = verifyStatement({
      envelopeText: ex.envelope,
      trustedKeyPems: [exampleKey],
      manifest: unsigned,
    });
    expect(failed(r).map((c) => c.name)).toContain('Statement signer');
  });

  it('checks the SBOM summary against the pinned file: format, version and component count', async () => {
    const wrongCount = await resignedStatement((j) => j.replace('"componentCount":2', '"componentCount":3'));
    const f = failed(verifyExample(wrongCount));
    expect(f.map((c) => c.name)).toEqual(['SBOM']);
    expect(f[0]!.detail).toBe(
      'sbom.json has the pinned bytes, but reads as CycloneDX 1.5, 2 components, while the statement says CycloneDX 1.5, 3 components',
    );
  });
});

describe('npm run verify -- --statement --sbom', () => {
  const files = () => {
    const f = {
      xml: join(dir, 'package.xml'),
      key: join(dir, 'portal-key.pem'),
      statement: join(dir, 'statement.json'),
      sbom: join(dir, 'sbom.json'),
    };
    writeFileSync(f.xml, ex.xml);
    writeFileSync(f.key, exampleKey);
    writeFileSync(f.statement, ex.envelope);
    writeFileSync(f.sbom, EXAMPLE_SBOM);
    return f;
  };
  const run = async (args: string[]) => {
    let out = '';
    const code = await runVerify(args, (s) => {
      out += s;
    });
    return { code, out };
  };

  it('accepts the package with its statement and SBOM, a line per check', async () => {
    const f = files();
    const r = await run([f.xml, '--key', f.key, '--statement', f.statement, '--sbom', f.sbom]);
    expect(r.out).toContain('  PASS  Statement binds this package: manifest SHA-256 ');
    expect(r.out).toContain('  PASS  SBOM: ');
    expect(r.out).toMatch(/VERDICT: VALID\n$/);
    expect(r.code).toBe(0);
  });

  it('fails, naming the SBOM, when the SBOM file is another one', async () => {
    const f = files();
    writeFileSync(f.sbom, `${EXAMPLE_SBOM.toString()} `);
    const r = await run([f.xml, '--key', f.key, '--statement', f.statement, '--sbom', f.sbom]);
    expect(r.out).toContain(`  FAIL  SBOM: ${f.sbom} is not the SBOM the statement pins`);
    expect(r.out).toMatch(/VERDICT: INVALID \(1 check failed\)\n$/);
    expect(r.code).toBe(1);
  });

  it("fails with another package's XML, and verifies a package alone exactly as before", async () => {
    const f = files();
    const other = join(dir, 'other.xml');
    writeFileSync(other, (await buildSample({ type: 'RELEASE_SIGNED' })).xml);
    const r = await run([other, '--statement', f.statement, '--key', f.key]);
    expect(r.out).toContain('  FAIL  Statement binds this package: it belongs to another package');
    expect(r.code).toBe(1);
    const alone = await run([f.xml, '--key', f.key]);
    expect(alone.out).not.toContain('Statement');
    expect(alone.code).toBe(0);
  });

  it.each([
    ['an extra line feed after the envelope', async () => `${ex.envelope}\n`, 'Statement envelope'],
    [
      'an envelope that is not compact',
      async () => ex.envelope.replace('","signatures":', '", "signatures": '),
      'Statement envelope',
    ],
    [
      "an envelope keyid that is not the package's key id",
      async () =>
        ex.envelope.replace(`"keyid":"${exampleSigner().keyId}"`, '"keyid":"local-p256-0000000000000000"'),
      'Statement signer',
    ],
    [
      'statement keys in another order (validly signed)',
      () =>
        resignedStatement((j) =>
          j
            .replace(
              '"predicateType":"firmware-release-portal/provenance-statement/1","predicate":',
              '"predicate":',
            )
            .replace(/}$/, ',"predicateType":"firmware-release-portal/provenance-statement/1"}'),
        ),
      'Statement form',
    ],
    [
      'a different signer in predicate.signature (validly signed)',
      () => resignedStatement((j) => j.replace('"email":"rel@example.com"', '"email":"eve@example.com"')),
      'Statement signer',
    ],
  ] as const)('refuses %s, naming the one check that fails', async (_what, make, failing) => {
    const f = files();
    const text = await make();
    expect(text).not.toBe(ex.envelope);
    writeFileSync(f.statement, text);
    const r = await run([f.xml, '--key', f.key, '--statement', f.statement, '--sbom', f.sbom]);
    expect(r.out).toContain(`  FAIL  ${failing}: `);
    expect(r.out).toMatch(/VERDICT: INVALID \(1 check failed\)\n$/);
    expect(r.code).toBe(1);
  });

  it('needs --key for --statement and --statement for --sbom', async () => {
    const f = files();
    expect((await run([f.xml, '--statement', f.statement])).code).toBe(2);
    expect((await run([f.xml, '--statement', f.statement])).out).toMatch(/--statement needs --key/);
    expect((await run([f.xml, '--key', f.key, '--sbom', f.sbom])).out).toMatch(/--sbom needs --statement/);
  });
});

describe('the pins checked at generation (decision 280)', () => {
  it('refuses an SBOM whose bytes are not the pinned ones, naming both', () => {
    const pinned = { sizeBytes: EXAMPLE_SBOM_SUMMARY.sizeBytes, sha256: EXAMPLE_SBOM_SUMMARY.sha256 };
    expect(() => checkSbomPin(pinned, pinned)).not.toThrow();
    const got = { sizeBytes: 287, sha256: 'ab'.repeat(32) };
    expect(() => checkSbomPin(got, pinned)).toThrow(SBOM_PIN_ERR.differs(got, pinned));
  });
  it('refuses a provenance record whose fields no longer hash to its SHA-256', () => {
    expect(() => checkProvenancePin(EXAMPLE_PROVENANCE)).not.toThrow();
    expect(() => checkProvenancePin({ ...EXAMPLE_PROVENANCE, commit: 'deadbeef' })).toThrow(
      /The build provenance is not the one reviewed/,
    );
  });
  it('writes the statement bytes as compact JSON', () => {
    const s = JSON.parse(ex.statement.toString());
    expect(Buffer.from(statementBytes(s)).equals(ex.statement)).toBe(true);
  });
});
