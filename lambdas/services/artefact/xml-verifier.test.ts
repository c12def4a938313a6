import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { p256 } from '@noble/curves/nist.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeFields } from '../../../shared/domain/header/header-rules';
import {
  buildSample,
  chunked,
  collect,
  sampleInput,
  testSigner,
} from '../../testing/artefact/xml-package.fixtures';
import { buildXmlPackage } from './xml-package';
import { formatReport, type VerifyReport, verifyXmlPackage } from './xml-verifier';

const dir = mkdtempSync(join(tmpdir(), 'xml-verify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let signed: Buffer;
let unsigned: Buffer;
let portalKey: string;
beforeAll(async () => {
  signed = (await buildSample({ patchConfig: new TextEncoder().encode('{"modelName":"m","version":"1"}') }))
    .xml;
  unsigned = (await buildSample({ type: 'RELEASE_UNSIGNED' })).xml;
  portalKey = await testSigner().publicKeyPem();
});

const verifyBytes = (xml: Buffer | string, opts = {}) =>
  verifyXmlPackage(chunked(Buffer.from(xml), 4096), opts);
const failed = (r: VerifyReport) => r.checks.filter((c) => !c.ok).map((c) => c.name);

/** Replaces the base64 text of element `name` with `edit(decoded bytes)`, re-encoded. */
function editBlob(xml: Buffer, name: string, edit: (b: Buffer) => Buffer): string {
  const re = new RegExp(`(<${name}[^>]*>)([^<]*)(</${name}>)`);
  return xml
    .toString()
    .replace(
      re,
      (_m, open, b64, close) => open + edit(Buffer.from(b64, 'base64')).toString('base64') + close,
    );
}
const flip = (at: (b: Buffer) => number) => (b: Buffer) => {
  const c = Buffer.from(b);
  const i = at(c);
  c[i] = c[i]! ^ 0x01;
  return c;
};

describe('verifyXmlPackage', () => {
  it('passes a signed package, with the key in the file and with the portal key', async () => {
    const r = await verifyBytes(signed, { trustedKeyPems: [portalKey] });
    expect(failed(r)).toEqual([]);
    expect(r.valid).toBe(true);
    expect(r.checks.map((c) => c.name)).toEqual([
      'XML structure',
      'Manifest',
      'Header CRC-32 and layout',
      'Header matches the manifest',
      'Payload SHA-256',
      'Patch config SHA-256',
      'Header describes this package',
      'Signature records',
      'Signature (key in the file)',
      'Signature (trusted key)',
      'Readable copy matches the signed manifest',
      'Layout',
    ]);
    expect(r.warnings).toEqual([]);
  });
  it('checks every signature record: name, role, UTC time and a meaning; notes a meaning of its own', async () => {
    const input = sampleInput();
    input.approvals = [
      {
        approver: { id: 'a', name: ' ', email: 'a@x', role: 'TECHNICAL_LEADER' },
        approvedAt: '2026-03-01 12:00',
      },
      {
        approver: { id: 'b', name: 'Bo', email: 'b@x', role: '' },
        // UTC, but not the one form of §1 (milliseconds): the portal writes no other
        approvedAt: '2026-03-01T12:00:00Z',
        meaning: 'ok',
      },
      {
        approver: { id: 'c', name: 'Cy', email: 'c@x', role: 'QUALITY_MANAGER' },
        approvedAt: '2026-03-01T12:00:00.000Z',
      },
    ];
    const built = buildXmlPackage(input);
    const r = await verifyBytes(await collect(built.stream), { trustedKeyPems: [portalKey] });
    expect(failed(r)).toEqual(['Signature records']);
    const detail = r.checks.find((c) => c.name === 'Signature records')?.detail;
    expect(detail).toBe(
      'approval 1 has no printed name; approval 1\'s time "2026-03-01 12:00" is not UTC ISO 8601 (2026-03-02T10:00:00.000Z); approval 2 has no role; approval 2\'s time "2026-03-01T12:00:00Z" is not UTC ISO 8601 (2026-03-02T10:00:00.000Z)',
    );
    expect(r.warnings).toContain('approval 2 states its own meaning: "ok"');
    // an unknown role code is a note, not a failure (docs/package-format.md §3.3)
    expect(r.warnings).toContain('approval 3 names a role this portal does not know: "QUALITY_MANAGER"');
    const good = await verifyBytes(signed, { trustedKeyPems: [portalKey] });
    expect(good.checks.find((c) => c.name === 'Signature records')?.detail).toBe(
      '3 signatures, each with name, role, UTC time and meaning',
    );
  });
  it('warns that a signature checked only against the key in the file proves integrity, not origin', async () => {
    const r = await verifyBytes(signed);
    expect(r.valid).toBe(true);
    expect(r.warnings[0]).toMatch(/not who signed it/);
  });
  it('passes an unsigned package and says it is unsigned', async () => {
    const r = await verifyBytes(unsigned);
    expect(failed(r)).toEqual([]);
    expect(r.warnings[0]).toMatch(/carries no signature/);
  });
  it('fails when one payload byte is changed', async () => {
    const xml = editBlob(
      signed,
      'payload',
      flip((b) => b.length >> 1),
    );
    const r = await verifyBytes(xml, { trustedKeyPems: [portalKey] });
    expect(r.valid).toBe(false);
    expect(failed(r)).toEqual(['Payload SHA-256']);
  });
  it('fails when one header byte is changed', async () => {
    const r = await verifyBytes(
      editBlob(
        signed,
        'bytes',
        flip(() => 5),
      ),
    );
    expect(failed(r)).toEqual(['Header CRC-32 and layout']);
    expect(r.checks.find((c) => !c.ok)?.detail).toMatch(
      /Header CRC: is 0x[0-9A-F]{8} but the 67 bytes before it give/,
    );
  });
  it('fails when a header byte is changed and its CRC recomputed', async () => {
    const { xml } = await buildSample();
    const input = sampleInput();
    const other = input.header.fields.find((f) => f.name === 'Package Id')!;
    other.value = 7;
    const forged = Buffer.from(
      (await import('../../../shared/domain/header/header-codec')).encodeHeader(
        computeFields(input.header, { packageType: 'RELEASE_SIGNED', resourceSizeBytes: 10_000 }),
      ),
    );
    const r = await verifyBytes(editBlob(xml, 'bytes', () => forged));
    expect(failed(r)).toEqual([
      'Header matches the manifest',
      'Readable copy matches the signed manifest',
      'Layout',
    ]);
  });
  it('fails when one signature byte is changed', async () => {
    const r = await verifyBytes(
      editBlob(
        signed,
        'signature',
        flip((b) => b.length - 1),
      ),
    );
    expect(failed(r)).toEqual(['Signature (key in the file)']);
  });
  it('fails when the manifest is re-written, even with its digest and the readable copy updated', async () => {
    const forged = editBlob(signed, 'manifest', (b) =>
      Buffer.from(b.toString().replace('occlusion', 'OCCLUSION')),
    );
    const sha = createHash('sha256')
      .update(Buffer.from(/<manifest[^>]*>([^<]*)</.exec(forged)![1]!, 'base64'))
      .digest('hex');
    const xml = forged
      .replace(/(<manifest encoding="base64" sha256=")[0-9a-f]+/, `$1${sha}`)
      .replace('occlusion', 'OCCLUSION');
    const r = await verifyBytes(xml, { trustedKeyPems: [portalKey] });
    expect(failed(r)).toEqual(['Signature (key in the file)', 'Signature (trusted key)']);
  });
  it('fails when the readable copy says something the manifest does not', async () => {
    const r = await verifyBytes(signed.toString().replace('<note>Fixes', '<note>Breaks'));
    expect(failed(r)).toEqual(['Readable copy matches the signed manifest', 'Layout']);
    expect(r.checks.find((c) => !c.ok)?.detail).toMatch(/\/firmwarePackage\/metadata\/note: text "Breaks/);
  });
  it('fails when a readable header field is changed', async () => {
    const r = await verifyBytes(
      signed.toString().replace('name="Package Id" value="0"', 'name="Package Id" value="5"'),
    );
    expect(failed(r)).toEqual(['Readable copy matches the signed manifest', 'Layout']);
  });
  it('fails against a trusted key that did not sign the package', async () => {
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    const r = await verifyBytes(signed, { trustedKeyPems: [stranger.toString()] });
    expect(failed(r)).toEqual(['Signature (trusted key)']);
    expect(r.checks.find((c) => !c.ok)?.detail).toMatch(/differs from the key in the file/);
  });
  it('fails when the signature of a signed package is removed', async () => {
    const xml = signed
      .toString()
      .replace(/ {2}<signature[^\n]*\n/, '')
      .replace(/ {2}<publicKey[^\n]*\n/, '');
    const r = await verifyBytes(xml);
    expect(failed(r)).toContain('Signature (key in the file)');
  });
  it('fails when a signature is grafted onto an unsigned package', async () => {
    const block = /( {2}<signature[^\n]*\n {2}<publicKey[^\n]*\n)/.exec(signed.toString())![1]!;
    const r = await verifyBytes(
      unsigned.toString().replace('</firmwarePackage>', `${block}</firmwarePackage>`),
    );
    expect(failed(r)).toContain('Unsigned package');
  });
  it('fails a truncated file', async () => {
    const r = await verifyBytes(signed.subarray(0, signed.length - 200));
    expect(r.valid).toBe(false);
    expect(failed(r)).toEqual(['XML structure']);
  });
  it('fails a file with content the format does not allow', async () => {
    const r = await verifyBytes(signed.toString().replace('<metadata>', '<metadata><!-- x -->'));
    expect(failed(r)).toEqual(['XML structure']);
  });
  it('prints a verdict line', async () => {
    expect(formatReport(await verifyBytes(signed))).toMatch(/\nVERDICT: VALID\n$/);
    expect(
      formatReport(
        await verifyBytes(
          editBlob(
            signed,
            'payload',
            flip(() => 0),
          ),
        ),
      ),
    ).toMatch(/FAIL {2}Payload SHA-256: .*\nVERDICT: INVALID \(1 check failed\)\n$/s);
  });

  it('extracts data.bin, sig.der and key.pem that openssl verifies', async () => {
    const out = join(dir, 'extract');
    const r = await verifyBytes(signed, { extractDir: out });
    expect(Object.keys(r.extracted).sort()).toEqual(
      ['data.bin', 'header.bin', 'key.pem', 'patch-config.bin', 'payload.bin', 'sig.der'].sort(),
    );
    const ok = execFileSync(
      'openssl',
      ['dgst', '-sha256', '-verify', 'key.pem', '-signature', 'sig.der', 'data.bin'],
      {
        cwd: out,
        encoding: 'utf8',
      },
    );
    expect(ok.trim()).toBe('Verified OK');
    const manifest = JSON.parse(readFileSync(join(out, 'data.bin'), 'utf8'));
    const payloadSha = createHash('sha256')
      .update(readFileSync(join(out, 'payload.bin')))
      .digest('hex');
    expect(manifest.payload.sha256).toBe(payloadSha);

    writeFileSync(
      join(out, 'data.bin'),
      readFileSync(join(out, 'data.bin'), 'utf8').replace('occlusion', 'Occlusion'),
    );
    const bad = spawnSync(
      'openssl',
      ['dgst', '-sha256', '-verify', 'key.pem', '-signature', 'sig.der', 'data.bin'],
      {
        cwd: out,
        encoding: 'utf8',
      },
    );
    expect(bad.status).toBe(1);
    expect(bad.stdout.trim()).toBe('Verification failure');
  });

  // the shell recipe of docs/package-format.md is run by package-format-doc.test.ts

  it('fails a file laid out differently, though its XML says the same (shell tools depend on the layout)', async () => {
    const reflowed = signed.toString().replace('\n  <dcc ', ' <dcc ');
    const r = await verifyBytes(reflowed, { trustedKeyPems: [portalKey] });
    expect(failed(r)).toEqual(['Layout']);
    expect(r.checks.find((c) => !c.ok)?.detail).toMatch(
      /differs from the prescribed layout at character \d+/,
    );
    const hexCase = signed.toString().replace('hex="0x4B505746"', 'hex="0x4b505746"');
    expect(failed(await verifyBytes(hexCase))).toEqual([
      'Readable copy matches the signed manifest',
      'Layout',
    ]);
  });
  it('fails a manifest that is not in its canonical form, even when validly signed', async () => {
    // the same keys and values, `package` before `format`, signed by the trusted key itself
    const { xml, result } = await buildSample();
    const { format, package: pkg, ...rest } = result.manifest;
    const reordered = JSON.stringify({ package: pkg, format, ...rest });
    expect(JSON.parse(reordered)).toEqual(result.manifest);
    const bytes = Buffer.from(reordered);
    const sig = Buffer.from(await testSigner().sign(createHash('sha256').update(bytes).digest()));
    const forged = editBlob(
      Buffer.from(editBlob(xml, 'manifest', () => bytes)),
      'signature',
      () => sig,
    ).replace(
      /(<manifest encoding="base64" sha256=")[0-9a-f]+/,
      `$1${createHash('sha256').update(bytes).digest('hex')}`,
    );
    const r = await verifyBytes(forged, { trustedKeyPems: [portalKey] });
    expect(failed(r)).toEqual(['Manifest']);
    expect(r.checks.find((c) => !c.ok)?.detail).toMatch(/not in the canonical form/);
  });
  it('fails, against the portal key, a signed package rewritten as a consistent unsigned one', async () => {
    // the same content, re-typed RELEASE_UNSIGNED: header Type and CRC, manifest and readable copy all agree
    const input = sampleInput({ type: 'RELEASE_UNSIGNED' });
    const rewritten = await collect(buildXmlPackage(input).stream);
    const integrity = await verifyBytes(rewritten);
    expect(integrity.valid).toBe(true);
    expect(integrity.warnings.join(' ')).toMatch(/a device refuses an unsigned release package/);
    const r = await verifyBytes(rewritten, { trustedKeyPems: [portalKey] });
    expect(r.valid).toBe(false);
    expect(failed(r)).toEqual(['Signature (trusted key)']);
    expect(r.checks.find((c) => !c.ok)?.detail).toMatch(
      /not signed; a device that trusts this key refuses it/,
    );
  });
  it('fails an unsigned development package against the portal key too', async () => {
    const dev = (await buildSample({ type: 'DEV_UNSIGNED' })).xml;
    expect(failed(await verifyBytes(dev, { trustedKeyPems: [portalKey] }))).toEqual([
      'Signature (trusted key)',
    ]);
  });
  it('refuses a line break inside the payload base64', async () => {
    const xml = signed.toString().replace(/(<payload[^>]*>)(.{76})/, '$1$2\n');
    const r = await verifyBytes(xml, { trustedKeyPems: [portalKey] });
    expect(r.valid).toBe(false);
    expect(r.checks.find((c) => c.name === 'Payload SHA-256')?.detail).toMatch(/line break/);
  });
  it('refuses a line break inside the manifest, the signature or the header bytes', async () => {
    for (const name of ['manifest', 'signature', 'bytes']) {
      const xml = signed.toString().replace(new RegExp(`(<${name}[^>]*>)(.{20})`), '$1$2\n');
      expect((await verifyBytes(xml, { trustedKeyPems: [portalKey] })).valid, name).toBe(false);
    }
  });
  it('refuses the high-S twin of a valid signature', async () => {
    const N = p256.Point.CURVE().n;
    const r = await verifyBytes(
      editBlob(signed, 'signature', (der) => {
        const sig = p256.Signature.fromBytes(der, 'der');
        return Buffer.from(new p256.Signature(sig.r, N - sig.s).toBytes('der'));
      }),
      { trustedKeyPems: [portalKey] },
    );
    expect(failed(r)).toEqual(['Signature (key in the file)']);
    expect(r.checks.find((c) => !c.ok)?.detail).toMatch(/high-S/);
  });
  it('fails a package whose type contradicts its stage or the header Type', async () => {
    const input = sampleInput({ type: 'DEV_SIGNED' });
    input.package.stage = 'RELEASE';
    const r = await verifyBytes(await collect(buildXmlPackage(input).stream), {
      trustedKeyPems: [portalKey],
    });
    // and the device policy goes by the type: a field device refuses a DEV_SIGNED package whatever stage it claims
    expect(failed(r)).toEqual(['Header describes this package', 'Device policy']);
    expect(r.checks.find((c) => !c.ok)?.detail).toMatch(/DEV_SIGNED package cannot have stage RELEASE/);
    expect(r.devModeAccepted).toBeUndefined();
  });

  it('builds and verifies a 16 MB package in one streaming pass', async () => {
    const size = 16 * 1024 * 1024;
    const chunk = new Uint8Array(256 * 1024);
    for (let i = 0; i < chunk.length; i++) chunk[i] = i & 0xff;
    const input = sampleInput();
    input.header = computeFields(input.header, { packageType: 'RELEASE_SIGNED', resourceSizeBytes: size });
    input.payload = {
      fileName: 'big.bin',
      bytes: (async function* () {
        for (let n = 0; n < size; n += chunk.length) yield chunk;
      })(),
    };
    const { stream } = buildXmlPackage(input);
    const r = await verifyXmlPackage(stream, { trustedKeyPems: [portalKey] });
    expect(failed(r)).toEqual([]);
    expect(r.manifest?.payload.size).toBe(size);
  });
});
