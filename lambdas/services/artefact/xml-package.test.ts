import { createHash, generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computeFields } from '../../../shared/domain/header/header-rules';
import type { Signer } from '../../ports/signer';
import {
  buildSample,
  chunked,
  collect,
  person,
  sampleInput,
  samplePayload,
  testSigner,
} from '../../testing/artefact/xml-package.fixtures';
import { decodeBase64 } from './base64-stream';
import { APPROVAL_MEANING, SIGNATURE_MEANING } from './xml-format';
import { buildXmlPackage } from './xml-package';
import { readXml } from './xml-reader';
import { verifyXmlPackage } from './xml-verifier';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const element = (xml: Buffer, name: string) => {
  const m = new RegExp(`<${name}[^>]*>([^<]*)</${name}>`).exec(xml.toString('utf8'));
  if (!m) throw new Error(`no <${name}>`);
  return m[1]!;
};

describe('buildXmlPackage', () => {
  it('signs the manifest bytes with the signer, verifiable with its public key', async () => {
    const { xml, result } = await buildSample();
    const manifestBytes = decodeBase64(element(xml, 'manifest'));
    expect(Buffer.from(manifestBytes)).toEqual(Buffer.from(result.manifestBytes));
    const signature = decodeBase64(element(xml, 'signature'));
    const key = await testSigner().publicKeyPem();
    expect(verify('sha256', manifestBytes, { key, dsaEncoding: 'der' }, signature)).toBe(true);
    expect(result.keyId).toBe(testSigner().keyId);
    expect(result.xmlSize).toBe(xml.length);
  });
  it('carries the payload as base64 whose SHA-256 the manifest records', async () => {
    const payload = samplePayload(200_001);
    const { xml, result } = await buildSample({ payload });
    // Buffer.equals: a deep toEqual over 200 kB is needlessly slow
    expect(decodeBase64(element(xml, 'payload')).equals(payload)).toBe(true);
    expect(result.manifest.payload).toEqual({
      fileName: 'pump-fw-4.2.bin',
      size: 200_001,
      sha256: sha256(payload),
    });
  });
  it('records who approved, in which role, when and what it means, and who signed', async () => {
    const { result } = await buildSample();
    expect(result.manifest.approvals[0]).toEqual({
      approver: person('u-tl', 'TECHNICAL_LEADER'),
      approvedAt: '2026-03-01T12:00:00.000Z',
      meaning: APPROVAL_MEANING,
    });
    expect(result.manifest.signature).toMatchObject({
      algorithm: 'ECDSA_P256_SHA256',
      signedBy: person('u-rel', 'SW_FW_RELEASE_ENGINEER'),
      meaning: SIGNATURE_MEANING,
    });
  });
  it('builds an unsigned package without a signature block', async () => {
    const { xml, result } = await buildSample({ type: 'DEV_UNSIGNED' });
    expect(xml.toString()).not.toContain('<signature');
    expect(result.signature).toBeUndefined();
    expect(result.manifest.signature).toBeNull();
  });
  it('carries the model metadata as the patch config', async () => {
    const config = new TextEncoder().encode('{"modelName":"m","version":"2"}');
    const { xml, result } = await buildSample({ patchConfig: config });
    expect(decodeBase64(element(xml, 'patchConfig'))).toEqual(Buffer.from(config));
    expect(result.manifest.patchConfig).toEqual({
      fileName: 'metadata.json',
      size: config.length,
      sha256: sha256(config),
    });
  });
  it('keeps markup and odd characters of a note intact in the manifest and escaped in the XML', async () => {
    const note = 'a <b>&amp; "q" \'s\'\r\nline2\ttab \u0001 ✓';
    const { xml, result } = await buildSample({ note });
    expect(result.manifest.package.note).toBe(note);
    const root = await readXml(xml.toString());
    const shown = root.children[0]!.children.find((c) => c.name === 'note')!.text;
    expect(shown).toBe(note.replace('\u0001', '\uFFFD'));
    expect((await verifyXmlPackage(chunked(xml))).valid).toBe(true);
  });

  it('reads the payload as it writes, never far ahead of the reader', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0xab);
    const total = 256;
    let pulled = 0;
    async function* source() {
      for (let i = 0; i < total; i++) {
        pulled++;
        yield chunk;
      }
    }
    const input = sampleInput({ type: 'DEV_UNSIGNED' });
    input.header = computeFields(input.header, {
      packageType: 'DEV_UNSIGNED',
      resourceSizeBytes: chunk.length * total,
    });
    input.payload = { fileName: 'big.bin', bytes: source() };
    const { stream, result } = buildXmlPackage(input);
    let read = 0;
    let maxAhead = 0;
    for await (const c of stream) {
      read += (c as Buffer).length;
      maxAhead = Math.max(maxAhead, pulled * chunk.length - (read * 3) / 4);
      // a slow reader: the builder must wait for it rather than buffer the payload
      if (read % (1024 * 1024) < 65_536) await new Promise((r) => setTimeout(r, 1));
    }
    expect(pulled).toBe(total);
    expect(maxAhead).toBeLessThan(1024 * 1024);
    expect((await result).manifest.payload.size).toBe(chunk.length * total);
  });

  it('refuses a header whose CRC is stale before producing anything', () => {
    const input = sampleInput();
    const f = input.header.fields.find((x) => x.name === 'Package Id')!;
    f.value = 99;
    expect(() => buildXmlPackage(input)).toThrow(/Header CRC: .* run computeFields first/);
  });
  it('refuses a header whose type is not the package type', () => {
    const input = sampleInput({ type: 'RELEASE_SIGNED' });
    input.package.type = 'RELEASE_UNSIGNED';
    expect(() => buildXmlPackage(input)).toThrow(
      /header's Type is 3, but a RELEASE_UNSIGNED package has type 2/,
    );
  });
  it('refuses a signed package without a signer, and an unsigned one with a signer', () => {
    const signed = sampleInput({ type: 'DEV_SIGNED' });
    delete signed.signing;
    expect(() => buildXmlPackage(signed)).toThrow(/A DEV_SIGNED package needs a signer/);
    const unsigned = sampleInput({ type: 'DEV_UNSIGNED' });
    unsigned.signing = {
      signer: testSigner(),
      signedBy: person('x', 'SW_FW_RELEASE_ENGINEER'),
      signedAt: 'now',
    };
    expect(() => buildXmlPackage(unsigned)).toThrow(/is not signed; no signer expected/);
  });
  it('refuses a patch config the header does not account for', () => {
    const input = sampleInput();
    input.patchConfig = { fileName: 'metadata.json', bytes: new Uint8Array(5) };
    expect(() => buildXmlPackage(input)).toThrow(/Patch Config Size is 0, but the patch config is 5 bytes/);
  });
  it('fails the stream when the payload is not the size the header states', async () => {
    const input = sampleInput({ payload: samplePayload(1000) });
    input.payload.bytes = chunked(samplePayload(999));
    const { stream, result } = buildXmlPackage(input);
    await expect(collect(stream)).rejects.toThrow(
      /payload is 999 bytes, but the header's Patch Data Size is 1000/,
    );
    await expect(result).rejects.toThrow(/999 bytes/);
  });
  it('fails the stream when the payload is not the one recorded at upload', async () => {
    const input = sampleInput();
    input.payload.expectedSha256 = '0'.repeat(64);
    await expect(collect(buildXmlPackage(input).stream)).rejects.toThrow(/not 0000.* as recorded at upload/);
  });
  it('refuses a metadata file that is not the one pinned for review, before a byte is built (decision 190)', () => {
    const config = new TextEncoder().encode('{"modelName":"m","version":"1"}');
    const pin = { sizeBytes: config.length, sha256: createHash('sha256').update(config).digest('hex') };
    const input = sampleInput({ patchConfig: config });
    input.patchConfig!.expected = pin;
    expect(() => buildXmlPackage(input)).not.toThrow();
    const swapped = new TextEncoder().encode('{"modelName":"m","version":"2"}');
    const other = sampleInput({ patchConfig: swapped });
    other.patchConfig!.expected = pin;
    expect(() => buildXmlPackage(other)).toThrow(
      new RegExp(
        `metadata.json is not the one reviewed: .* not ${pin.sizeBytes} bytes with SHA-256 ${pin.sha256} as recorded at upload`,
      ),
    );
    const unpinned = sampleInput({ patchConfig: config });
    unpinned.patchConfig!.expected = null;
    expect(() => buildXmlPackage(unpinned)).toThrow(/was not pinned when this package was reviewed/);
  });
  it('fails the stream when the signature does not verify with the signer public key', async () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    const liar: Signer = {
      keyId: 'liar',
      sign: (d) => testSigner().sign(d),
      publicKeyPem: async () => other.toString(),
    };
    await expect(collect(buildXmlPackage(sampleInput({ signer: liar })).stream)).rejects.toThrow(
      /signature from key liar does not verify/,
    );
  });
  it('fails fast, before reading the payload, when the signer has no public key', async () => {
    let pulled = false;
    const input = sampleInput({
      signer: {
        keyId: 'k',
        sign: async () => new Uint8Array(),
        publicKeyPem: async () => Promise.reject(new Error('KMS down')),
      },
    });
    input.payload.bytes = (async function* () {
      pulled = true;
      yield new Uint8Array(10_000);
    })();
    await expect(collect(buildXmlPackage(input).stream)).rejects.toThrow('KMS down');
    expect(pulled).toBe(false);
  });
  it('lends one Buffer for the payload: a reader copying each chunk before the next gets the whole document', async () => {
    const payload = samplePayload(1_000_000);
    const { stream, result } = buildXmlPackage(sampleInput({ payload }));
    const copies: Buffer[] = [];
    const lent = new Set<ArrayBufferLike>();
    for await (const c of stream) {
      copies.push(Buffer.from(c));
      if (c.length === 256 * 1024) lent.add(c.buffer);
    }
    // the payload's 1.33 MB of text went out through one 256 KiB Buffer, refilled five times
    expect(lent.size).toBe(1);
    const xml = Buffer.concat(copies);
    expect(decodeBase64(element(xml, 'payload')).equals(payload)).toBe(true);
    expect((await result).xmlSize).toBe(xml.length);
  });
  it('settles the result when the reader stops early', async () => {
    const { stream, result } = buildXmlPackage(sampleInput({ payload: samplePayload(500_000) }));
    for await (const _ of stream) break;
    await expect(result).rejects.toThrow();
  });
});

describe('the manifest', () => {
  it('holds only the documented fields, whatever else the caller passes', async () => {
    const input = sampleInput();
    Object.assign(input.package, { status: 'APPROVED', secret: 'x' });
    Object.assign(input.approvals[0]!.approver, { passwordHash: 'h' });
    const build = buildXmlPackage(input);
    await collect(build.stream);
    const m = (await build.result).manifest;
    expect(Object.keys(m.package)).toEqual([
      'id',
      'name',
      'type',
      'stage',
      'resourceName',
      'resourceType',
      'note',
      'initiator',
      'createdAt',
      'generatedAt',
    ]);
    expect(Object.keys(m.approvals[0]!.approver)).toEqual(['id', 'name', 'email', 'role']);
  });
});
