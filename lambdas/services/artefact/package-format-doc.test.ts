import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { p256 } from '@noble/curves/nist.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DsseEnvelope } from '../../../shared/api/contracts/provenance-statement';
import { SIGNATURE_MEANINGS } from '../../../shared/domain/signature-meanings';
import { examplePackage, exampleSigner } from '../../testing/artefact/package-format.example';
import {
  EXAMPLE_SBOM,
  exampleStatement,
  manifestBytesOf,
} from '../../testing/artefact/provenance-statement.example';
import {
  buildSample,
  collect,
  sampleInput,
  samplePayload,
  testSigner,
} from '../../testing/artefact/xml-package.fixtures';
import {
  buildStatement,
  envelopeText,
  pae,
  STATEMENT_PAYLOAD_TYPE,
  signStatement,
} from './provenance-statement';
import { verifyStatement } from './provenance-statement-verify';
import { LEGACY_APPROVAL_MEANING, LEGACY_SIGNATURE_MEANING } from './xml-format';
import { buildXmlPackage } from './xml-package';
import { verifyXmlPackage } from './xml-verifier';

/**
 * docs/package-format.md is the whole contract for device teams: its worked example must be the bytes the
 * builder makes, and its shell recipe (§9) must accept what the portal makes and refuse what §7 refuses.
 * The recipe and the example are taken from the document itself, so the two cannot drift apart.
 */

const doc = readFileSync(join(__dirname, '../../../docs/package-format.md'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'format-doc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The fenced block of `lang` that follows the first line containing `after`. */
function block(after: string, lang: string): string {
  const from = doc.indexOf(after);
  if (from < 0) throw new Error(`no "${after}" in the document`);
  const open = doc.indexOf(`\`\`\`${lang}\n`, from);
  const start = open + lang.length + 4;
  const end = doc.indexOf('```', start);
  return doc.slice(start, end);
}

const recipe = join(dir, 'check-package.sh');
let portalKey: string;
let exampleKey: string;
beforeAll(async () => {
  writeFileSync(recipe, block('## 9. Checking a package with a shell', 'sh'));
  portalKey = join(dir, 'portal-key.pem');
  writeFileSync(portalKey, await testSigner().publicKeyPem());
  exampleKey = join(dir, 'example-key.pem');
  writeFileSync(exampleKey, await exampleSigner().publicKeyPem());
});

/** Runs the document's recipe with /bin/sh; returns its exit code and output. */
function check(xml: Buffer | string, key = portalKey): { code: number; out: string } {
  const file = join(dir, `p-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(file, xml);
  const r = spawnSync('sh', [recipe, file, key], { encoding: 'utf8' });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

const N = p256.Point.CURVE().n;
const highS = (der: Buffer) => {
  const s = p256.Signature.fromBytes(der, 'der');
  return Buffer.from(new p256.Signature(s.r, N - s.s).toBytes('der'));
};
/** Replaces the base64 text of element `name` with `edit(decoded bytes)`, re-encoded. */
const editBlob = (xml: Buffer, name: string, edit: (b: Buffer) => Buffer) =>
  xml
    .toString()
    .replace(
      new RegExp(`(<${name}[^>]*>)([^<]*)(</${name}>)`),
      (_m, open, b64, close) => open + edit(Buffer.from(b64, 'base64')).toString('base64') + close,
    );

describe('docs/package-format.md, a contract a device team can hold alone', () => {
  it('names no decision record and no issue: a device team has neither', () => {
    expect(doc).not.toMatch(/\bdecisions? \d+/i);
    expect(doc).not.toMatch(/docs\/decisions|\bissue \d+/i);
  });

  // the questions of the device team's report (A1–A12): each must have its one-sentence answer in §12
  const QUESTIONS = {
    A1: 'DEV_SIGNED',
    A2: 'LF',
    A3: 'statement',
    A4: 'empty',
    A5: '&#82;',
    A6: 'keyid',
    A7: 'role',
    A8: 'surrogate',
    A9: 'componentCount',
    A10: 'exactly one',
    A11: 'approval policy',
    A12: 'form',
  };

  it('answers every question device teams asked (A1–A12), each with one sentence', () => {
    const ids = Object.keys(QUESTIONS) as (keyof typeof QUESTIONS)[];
    const section = doc.slice(doc.indexOf('## 12. Questions device teams asked'), doc.indexOf('## 13.'));
    for (const id of ids) {
      const item = new RegExp(`\\n- \\*\\*${id}\\. [^*]+\\*\\* \\(§[^)]+\\): ([^\\n]|\\n  )+`).exec(section);
      expect(item, id).not.toBeNull();
      // one sentence: a single full stop, at the end
      const answer = item![0].split('): ').slice(1).join('): ').replace(/\s+/g, ' ').trim();
      expect(answer.replace(/`[^`]*`/g, '').match(/\.(\s|$)/g), `${id}: ${answer}`).toHaveLength(1);
      expect(answer, id).toContain(QUESTIONS[id]);
    }
  });
});

describe('docs/package-format.md, electronic signatures (§3.3)', () => {
  it('states every signature meaning word for word, and the legacy ones the verifier accepts', () => {
    for (const meaning of Object.values(SIGNATURE_MEANINGS)) expect(doc).toContain(meaning);
    for (const legacy of [LEGACY_APPROVAL_MEANING, LEGACY_SIGNATURE_MEANING])
      expect(doc.replace(/\s*\n\s*/g, ' ')).toContain(legacy);
  });
});

describe('docs/package-format.md, worked example (§8)', () => {
  it('shows, byte for byte, the package the builder makes from the example inputs', async () => {
    expect(block('The package (payload', 'xml')).toBe((await examplePackage()).toString('utf8'));
  });
  it('shows the example key and the decoded signed data', async () => {
    expect(block('Its public key:', '')).toBe(await exampleSigner().publicKeyPem());
    const xml = (await examplePackage()).toString();
    const manifest = Buffer.from(/<manifest[^>]*>([^<]*)</.exec(xml)![1]!, 'base64');
    expect(block('- **Signed data:**', 'json').trim()).toBe(manifest.toString('utf8'));
    expect(doc).toContain(`decodes to these ${manifest.length.toLocaleString('en-US')} bytes`);
  });
  it('gives the r, s, CRC and key id that the example really has', async () => {
    const xml = (await examplePackage()).toString();
    const sig = p256.Signature.fromBytes(
      Buffer.from(/<signature[^>]*>([^<]*)</.exec(xml)![1]!, 'base64'),
      'der',
    );
    const hex = (n: bigint) => `0x${n.toString(16).toUpperCase().padStart(64, '0')}`;
    expect(doc).toContain(`r = \`${hex(sig.r)}\``);
    expect(doc).toContain(`s = \`${hex(sig.s)}\`; s < n / 2`);
    expect(sig.s <= N >> 1n).toBe(true);
    expect(doc).toContain(`n / 2 (rounded down) = \`${hex(N >> 1n)}\``);
    expect(doc).toContain(`n = \`${hex(N)}\``);
    const keyId = exampleSigner().keyId;
    expect(xml).toContain(`keyId="${keyId}"`);
    const der = Buffer.from(/<publicKey[^>]*>([^<]*)</.exec(xml)![1]!, 'base64');
    expect(keyId).toBe(`local-p256-${createHash('sha256').update(der).digest('hex').slice(0, 16)}`);
    expect(doc).toContain(`\`${keyId}\``);
  });
  it('is a package the verifier and the recipe accept with the example key', async () => {
    const xml = await examplePackage();
    const r = await verifyXmlPackage(
      (async function* () {
        yield xml;
      })(),
      { trustedKeyPems: [await exampleSigner().publicKeyPem()] },
    );
    expect(r.checks.filter((c) => !c.ok)).toEqual([]);
    const run = check(xml, exampleKey);
    expect(run.out).toBe('ACCEPTED: RELEASE_SIGNED MODEL, header 84 bytes, payload 28 bytes\n');
    expect(run.code).toBe(0);
  });
});

/** The package with its signed manifest rewritten by `edit` and signed again with the portal key. */
async function resign(xml: Buffer, edit: (manifest: string) => string): Promise<Buffer> {
  const bytes = Buffer.from(
    edit(Buffer.from(/<manifest[^>]*>([^<]*)</.exec(xml.toString())![1]!, 'base64').toString()),
  );
  const sig = Buffer.from(await testSigner().sign(createHash('sha256').update(bytes).digest()));
  const withManifest = xml
    .toString()
    .replace(
      /(<manifest encoding="base64" sha256=")[0-9a-f]{64}(">)[^<]*/,
      (_m, a, b) => `${a}${createHash('sha256').update(bytes).digest('hex')}${b}${bytes.toString('base64')}`,
    );
  return Buffer.from(editBlob(Buffer.from(withManifest), 'signature', () => sig));
}

describe('docs/package-format.md, shell recipe (§9) on freshly generated packages', () => {
  const config = new TextEncoder().encode('{"modelName":"m","version":"1"}');
  it('accepts release packages of both kinds, and refuses development ones as a device in the field does', async () => {
    for (const patchConfig of [undefined, config]) {
      const { xml } = await buildSample({
        type: 'RELEASE_SIGNED',
        patchConfig,
        payload: samplePayload(100_003),
      });
      const run = check(xml);
      expect(run.out).toBe(
        `ACCEPTED: RELEASE_SIGNED ${patchConfig ? 'MODEL' : 'PATCH'}, header 71 bytes, payload 100003 bytes\n`,
      );
      expect(run.code).toBe(0);
      // a DEV_SIGNED package signed by the same (release) key: the type alone refuses it (§7 rule 1)
      const dev = (await buildSample({ type: 'DEV_SIGNED', patchConfig })).xml;
      const refused = check(dev);
      expect(refused.out).toBe(
        'REFUSED: DEV_SIGNED: a device in the field refuses every development package\n',
      );
      expect(refused.code).toBe(1);
      const v = await verifyXmlPackage(
        (async function* () {
          yield dev;
        })(),
        { trustedKeyPems: [readFileSync(portalKey, 'utf8')] },
      );
      expect(v.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['Device policy']);
    }
  });
  it('refuses what the device policy refuses, as the verifier does with the same key', async () => {
    const { xml: signed } = await buildSample({ patchConfig: config });
    const other = join(dir, 'other.pem');
    writeFileSync(other, await exampleSigner().publicKeyPem());
    const cases: [string, Buffer | string, RegExp, string?][] = [
      [
        'an unsigned release package',
        (await buildSample({ type: 'RELEASE_UNSIGNED' })).xml,
        /RELEASE_UNSIGNED: a device accepts signed packages only/,
      ],
      [
        'an unsigned development package',
        (await buildSample({ type: 'DEV_UNSIGNED' })).xml,
        /DEV_UNSIGNED: a device in the field refuses every development package/,
      ],
      ['a signature by another key', signed, /does not verify with/, other],
      ['a high-S signature', editBlob(signed, 'signature', highS), /high-S/],
      [
        'a line break in the payload',
        signed.toString().replace(/(<payload[^>]*>.{40})/, '$1\n'),
        /broken over lines/,
      ],
      [
        'a changed payload byte',
        editBlob(signed, 'payload', (b) => Buffer.concat([b.subarray(1), Buffer.of(b[0]! ^ 1)])),
        /payload is not the signed one/,
      ],
      [
        'a changed patch config',
        editBlob(signed, 'patchConfig', (b) => Buffer.from(b.toString().replace('"m"', '"n"'))),
        /patch config is not the signed one/,
      ],
      [
        'a changed header byte',
        editBlob(signed, 'bytes', (b) =>
          Buffer.concat([b.subarray(0, 5), Buffer.of(b[5]! ^ 1), b.subarray(6)]),
        ),
        /header bytes are not the signed ones/,
      ],
      [
        'a re-signed manifest',
        editBlob(signed, 'manifest', (b) => Buffer.from(b.toString().replace('occlusion', 'Occlusion'))),
        /does not verify/,
      ],
      [
        'a space in the signature',
        signed.toString().replace(/(<signature[^>]*>.{10})/, '$1 '),
        /outside base64/,
      ],
      [
        'a byte order mark before line 1',
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), signed]),
        /line 1 is not the XML declaration/,
      ],
      [
        'no approval, correctly signed',
        await resign(signed, (m) => m.replace(/"approvals":\[.*\],"header":/, '"approvals":[],"header":')),
        /no approval is recorded/,
      ],
    ];
    for (const [what, xml, reason, key] of cases) {
      const run = check(xml, key ?? portalKey);
      expect(run.out, what).toMatch(reason);
      expect(run.out, what).toMatch(/^REFUSED: /);
      expect(run.code, what).toBe(1);
      const v = await verifyXmlPackage(
        (async function* () {
          yield Buffer.from(xml);
        })(),
        { trustedKeyPems: [readFileSync(key ?? portalKey, 'utf8')] },
      );
      expect(v.valid, `the verifier refuses ${what} too`).toBe(false);
    }
  });
  it('refuses a package whose header Type contradicts its type', async () => {
    // a DEV_SIGNED header inside a RELEASE_SIGNED package: built by hand, signed by the trusted key
    const input = sampleInput({ type: 'DEV_SIGNED' });
    input.package.type = 'RELEASE_SIGNED';
    input.package.stage = 'RELEASE';
    expect(() => buildXmlPackage(input)).toThrow(
      /header's Type is 1, but a RELEASE_SIGNED package has type 3/,
    );
    const dev = (await buildSample({ type: 'DEV_SIGNED' })).xml.toString();
    const manifest = Buffer.from(/<manifest[^>]*>([^<]*)</.exec(dev)![1]!, 'base64')
      .toString()
      .replace('"type":"DEV_SIGNED","stage":"DEV"', '"type":"RELEASE_SIGNED","stage":"RELEASE"');
    const bytes = Buffer.from(manifest);
    const sig = Buffer.from(await testSigner().sign(createHash('sha256').update(bytes).digest()));
    const forged = editBlob(
      Buffer.from(editBlob(Buffer.from(dev), 'manifest', () => bytes)),
      'signature',
      () => sig,
    );
    const run = check(forged);
    expect(run.out).toBe('REFUSED: header Type is not RELEASE_SIGNED\n');
    expect(run.code).toBe(1);
  });
  it('reads an 8 MB payload line (its sed expressions use no back-references)', async () => {
    const payload = samplePayload(8 * 1024 * 1024);
    const input = sampleInput({ payload });
    const xml = await collect(buildXmlPackage(input).stream);
    const run = check(xml);
    expect(run.out).toMatch(/^ACCEPTED: RELEASE_SIGNED PATCH/);
  });
});

describe('docs/package-format.md, provenance statement (§11)', () => {
  const statementRecipe = join(dir, 'check-statement.sh');
  beforeAll(() => {
    writeFileSync(statementRecipe, block('### 11.4 Checking a statement with a shell', 'sh'));
  });
  /** Runs the §11.4 recipe; returns its exit code and output. */
  function checkStatement(
    xml: Buffer,
    envelope: string,
    key: string,
    sbom?: Buffer | string,
  ): { code: number; out: string } {
    const tag = Math.random().toString(36).slice(2);
    const files = [join(dir, `p-${tag}.xml`), join(dir, `s-${tag}.json`), key];
    writeFileSync(files[0]!, xml);
    writeFileSync(files[1]!, envelope);
    if (sbom !== undefined) {
      files.push(join(dir, `sbom-${tag}.json`));
      writeFileSync(files[3]!, sbom);
    }
    const r = spawnSync('sh', [statementRecipe, ...files], { encoding: 'utf8' });
    return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
  }
  /** The envelope with its JSON edited by `edit`, one line as the portal writes it. */
  const editEnvelope = (text: string, edit: (e: DsseEnvelope) => void) => {
    const e = JSON.parse(text) as DsseEnvelope;
    edit(e);
    return `${JSON.stringify(e)}\n`;
  };

  it('shows, byte for byte, the example SBOM, envelope and statement, and the real r and s', async () => {
    const ex = await exampleStatement();
    expect(block('The statement of the §8 package', 'json').trim()).toBe(EXAMPLE_SBOM.toString('utf8'));
    expect(doc).toContain(`this CycloneDX SBOM (${EXAMPLE_SBOM.length} bytes)`);
    expect(block('The envelope file:', 'json')).toBe(ex.envelope);
    expect(block('Its payload decodes to these', 'json').trim()).toBe(ex.statement.toString('utf8'));
    expect(doc).toContain(`decodes to these ${ex.statement.length} bytes`);
    expect(doc).toContain(`PAE is \`DSSEv1 28 application/vnd.in-toto+json ${ex.statement.length} \``);
    const sig = p256.Signature.fromBytes(
      Buffer.from((JSON.parse(ex.envelope) as DsseEnvelope).signatures[0]!.sig, 'base64'),
      'der',
    );
    const hex = (n: bigint) => `0x${n.toString(16).toUpperCase().padStart(64, '0')}`;
    expect(doc).toContain(`r = \`${hex(sig.r)}\` and s = \`${hex(sig.s)}\` (low-S)`);
  });

  it('is accepted by the recipe and by the verifier, with and without the SBOM', async () => {
    const ex = await exampleStatement();
    const run = checkStatement(ex.xml, ex.envelope, exampleKey, EXAMPLE_SBOM);
    expect(run.out).toMatch(
      /^ACCEPTED: statement of package 3f1c2a9e-5b7d-4e21-9c0a-1d2e3f4a5b6c, manifest [0-9a-f]{64}, SBOM .* matches \(286 bytes\)\n$/,
    );
    expect(run.code).toBe(0);
    expect(checkStatement(ex.xml, ex.envelope, exampleKey).out).toMatch(/no SBOM file given\n$/);
    const v = verifyStatement({
      envelopeText: ex.envelope,
      trustedKeyPems: [await exampleSigner().publicKeyPem()],
      manifest: JSON.parse(manifestBytesOf(ex.xml).toString()),
      sbom: { name: 'sbom.json', bytes: EXAMPLE_SBOM },
    });
    expect(v.checks.filter((c) => !c.ok)).toEqual([]);
  });

  it('accepts the statement of a freshly generated package signed by the portal key', async () => {
    const { xml, result } = await buildSample({ type: 'DEV_SIGNED' });
    const envelope = envelopeText(
      await signStatement(
        buildStatement({ manifest: result.manifest, manifestSha256: result.manifestSha256 }),
        testSigner(),
      ),
    );
    const run = checkStatement(xml, envelope, portalKey);
    expect(run.out).toMatch(/^ACCEPTED: statement of package /);
    expect(checkStatement(xml, envelope, portalKey, EXAMPLE_SBOM).out).toBe(
      'REFUSED: the statement pins no SBOM\n',
    );
  });

  it('refuses what the verifier refuses: a changed byte, another key, high-S, another package, a swapped SBOM', async () => {
    const ex = await exampleStatement();
    const other = (await buildSample({ type: 'RELEASE_SIGNED' })).xml;
    const swapped = Buffer.from(EXAMPLE_SBOM.toString().replace('2.15.0', '2.15.1'));
    const cases: [string, Buffer, string, string, Buffer, RegExp][] = [
      [
        'a changed statement byte',
        ex.xml,
        editEnvelope(ex.envelope, (e) => {
          e.payload = Buffer.from(
            Buffer.from(e.payload, 'base64').toString().replace('"componentCount":2', '"componentCount":9'),
          ).toString('base64');
        }),
        exampleKey,
        EXAMPLE_SBOM,
        /signature does not verify/,
      ],
      ['another key', ex.xml, ex.envelope, portalKey, EXAMPLE_SBOM, /signature does not verify/],
      [
        'a high-S signature',
        ex.xml,
        editEnvelope(ex.envelope, (e) => {
          e.signatures[0]!.sig = highS(Buffer.from(e.signatures[0]!.sig, 'base64')).toString('base64');
        }),
        exampleKey,
        EXAMPLE_SBOM,
        /high-S/,
      ],
      [
        "another package's XML",
        other,
        ex.envelope,
        exampleKey,
        EXAMPLE_SBOM,
        /the statement is for manifest [0-9a-f]{64}, not this package's/,
      ],
      ['a swapped SBOM', ex.xml, ex.envelope, exampleKey, swapped, /is not the SBOM the statement pins/],
      [
        'not an envelope',
        ex.xml,
        '{"payload":"x"}\n',
        exampleKey,
        EXAMPLE_SBOM,
        /not a provenance statement envelope/,
      ],
    ];
    for (const [what, xml, envelope, key, sbom, reason] of cases) {
      const run = checkStatement(xml, envelope, key, sbom);
      expect(run.out, what).toMatch(reason);
      expect(run.out, what).toMatch(/^REFUSED: /);
      expect(run.code, what).toBe(1);
      const v = verifyStatement({
        envelopeText: envelope,
        trustedKeyPems: [readFileSync(key, 'utf8')],
        manifest: JSON.parse(manifestBytesOf(xml).toString()),
        sbom: { name: 'sbom.json', bytes: sbom },
      });
      expect(
        v.checks.some((c) => !c.ok),
        `the verifier refuses ${what} too`,
      ).toBe(true);
    }
  });

  it('refuses the five looser forms, as the verifier does (§11.1, §11.2)', async () => {
    const ex = await exampleStatement();
    const resigned = async (edit: (statement: string) => string) => {
      const body = Buffer.from(edit(ex.statement.toString('utf8')));
      const sig = await exampleSigner().sign(
        createHash('sha256').update(pae(STATEMENT_PAYLOAD_TYPE, body)).digest(),
      );
      return envelopeText({
        payloadType: STATEMENT_PAYLOAD_TYPE,
        payload: body.toString('base64'),
        signatures: [{ keyid: exampleSigner().keyId, sig: Buffer.from(sig).toString('base64') }],
      });
    };
    const cases: [string, string, RegExp][] = [
      ['an extra line feed', `${ex.envelope}\n`, /the envelope on one line followed by exactly one LF/],
      ['no line feed', ex.envelope.slice(0, -1), /the envelope on one line followed by exactly one LF/],
      [
        'an envelope that is not compact',
        ex.envelope.replace('","signatures":', '", "signatures":'),
        /not a provenance statement envelope in its one form/,
      ],
      [
        'two signatures',
        editEnvelope(ex.envelope, (e) => {
          e.signatures.push({ ...e.signatures[0]! });
        }),
        /not a provenance statement envelope in its one form/,
      ],
      [
        "a keyid that is not the package's",
        ex.envelope.replace(`"keyid":"${exampleSigner().keyId}"`, '"keyid":"local-p256-0000000000000000"'),
        /the envelope's keyid local-p256-0000000000000000 is not the package's key id/,
      ],
      [
        'statement keys in another order',
        await resigned((j) => {
          const o = JSON.parse(j);
          return JSON.stringify({
            subject: o.subject,
            _type: o._type,
            predicateType: o.predicateType,
            predicate: o.predicate,
          });
        }),
        /the statement is not in its one form/,
      ],
      [
        'a different signer in predicate.signature',
        await resigned((j) => j.replace('"name":"Rel Engineer"', '"name":"Eve Engineer"')),
        /the statement's predicate.signature is not the package's signature record/,
      ],
    ];
    for (const [what, envelope, reason] of cases) {
      expect(envelope, what).not.toBe(ex.envelope);
      const run = checkStatement(ex.xml, envelope, exampleKey, EXAMPLE_SBOM);
      expect(run.out, what).toMatch(reason);
      expect(run.out, what).toMatch(/^REFUSED: /);
      expect(run.code, what).toBe(1);
      const v = verifyStatement({
        envelopeText: envelope,
        trustedKeyPems: [await exampleSigner().publicKeyPem()],
        manifest: JSON.parse(manifestBytesOf(ex.xml).toString()),
        sbom: { name: 'sbom.json', bytes: EXAMPLE_SBOM },
      });
      expect(
        v.checks.filter((c) => !c.ok).map((c) => c.name),
        `the verifier refuses ${what} too`,
      ).toHaveLength(1);
    }
  });

  it('says devices need no change', () => {
    expect(doc).toContain('**Devices need no change.**');
  });
});
