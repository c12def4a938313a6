import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleSigner } from '../lambdas/testing/artefact/package-format.example';
import { buildSample, testSigner } from '../lambdas/testing/artefact/xml-package.fixtures';
import { runVerify } from './verify';

const dir = mkdtempSync(join(tmpdir(), 'verify-cli-'));
const good = join(dir, 'good.xml');
const bad = join(dir, 'bad.xml');
const key = join(dir, 'portal.pem');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  const { xml } = await buildSample();
  writeFileSync(good, xml);
  writeFileSync(bad, xml.toString().replace('<note>Fixes', '<note>Breaks'));
  writeFileSync(key, await testSigner().publicKeyPem());
});

async function run(...args: string[]) {
  let text = '';
  const code = await runVerify(args, (s) => {
    text += s;
  });
  return { code, text };
}

describe('npm run verify', () => {
  it('exits 0 and says VALID for an intact package checked with the portal key', async () => {
    const { code, text } = await run(good, '--key', key);
    expect(code).toBe(0);
    expect(text).toMatch(/PASS {2}Signature \(trusted key\)/);
    expect(text).toMatch(/VERDICT: VALID\n$/);
  });
  it('exits 1 and names the failed check for a tampered package', async () => {
    const { code, text } = await run(bad);
    expect(code).toBe(1);
    expect(text).toMatch(/FAIL {2}Readable copy matches the signed manifest/);
    expect(text).toMatch(/FAIL {2}Layout/);
    expect(text).toMatch(/VERDICT: INVALID \(2 checks failed\)/);
  });
  it('exits 2 for a missing file or wrong arguments', async () => {
    expect((await run(join(dir, 'nope.xml'))).code).toBe(2);
    expect((await run()).code).toBe(2);
    expect((await run(good, '--key')).code).toBe(2);
    expect((await run(good, '--frobnicate')).code).toBe(2);
  });
  it('exits 2 and says clearly when the key file is not a PEM public key', async () => {
    const pem = readFileSync(key, 'utf8');
    const file = (name: string, text: string) => {
      const f = join(dir, name);
      writeFileSync(f, text);
      return f;
    };
    const json = file(
      'key.json',
      JSON.stringify({ publicKeyPem: pem, keyId: 'k', algorithm: 'ECDSA_P256_SHA256' }),
    );
    const fromJson = await run(good, '--key', json);
    expect(fromJson.code).toBe(2);
    expect(fromJson.text).toBe(
      `The key file ${json} is not a PEM public key: it is JSON (the answer of GET /dev/signing-key?), not the PEM text "-----BEGIN PUBLIC KEY-----". Save the portal key as a PEM file: curl -so portal-key.pem <portal>/dev/signing-key.pem\n`,
    );
    const text = await run(good, '--key', file('notes.txt', 'hello'));
    expect(text.code).toBe(2);
    expect(text.text).toContain('is not a PEM public key: it must start with "-----BEGIN PUBLIC KEY-----"');
    const cut = await run(good, '--key', file('cut.pem', pem.slice(0, 60)));
    expect(cut.code).toBe(2);
    expect(cut.text).toContain('block cannot be read (cut short or changed?)');
    const priv = await run(
      good,
      '--key',
      file('priv.pem', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n'),
    );
    expect(priv.text).toContain('it is a private key');
    expect(priv.text).not.toMatch(/decoder|DECODER|asn1/);
  });
  it('writes the parts for openssl with --extract', async () => {
    const { text } = await run(good, '--extract', join(dir, 'parts'));
    expect(text).toContain(`wrote data.bin -> ${join(dir, 'parts', 'data.bin')}`);
  });
  it('runs as a command with the exit code of its verdict', () => {
    const cli = (file: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/verify.ts', file, '--key', key], {
        encoding: 'utf8',
      });
    const ok = cli(good);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/VERDICT: VALID/);
    expect(cli(bad).status).toBe(1);
  }, 30_000);
});

/** Writes `xml` as a package file of this test and answers its path. */
function file(name: string, xml: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, xml);
  return path;
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/**
 * The package with its manifest rewritten by `edit` and signed again with the portal key: a consistent,
 * correctly signed file whose signed bytes break the manifest's one JSON form. A verifier must still refuse
 * it (docs/package-format.md §5): the form is part of the contract, not only the signature.
 */
async function resigned(xml: string, edit: (json: string) => string): Promise<string> {
  const b64 = /<manifest encoding="base64" sha256="[0-9a-f]{64}">([^<]*)<\/manifest>/.exec(xml)![1]!;
  const bytes = Buffer.from(edit(Buffer.from(b64, 'base64').toString('utf8')), 'utf8');
  const signature = await testSigner().sign(createHash('sha256').update(bytes).digest());
  return xml
    .replace(
      /<manifest encoding="base64" sha256="[0-9a-f]{64}">[^<]*<\/manifest>/,
      `<manifest encoding="base64" sha256="${sha(bytes)}">${bytes.toString('base64')}</manifest>`,
    )
    .replace(/(<signature [^>]*>)[^<]*/, `$1${Buffer.from(signature).toString('base64')}`);
}

describe('npm run verify: the gaps a verifier built from the document alone found', () => {
  it('refuses a file that begins with a UTF-8 byte order mark: line 1 is the XML declaration itself', async () => {
    const xml = readFileSync(good);
    const bom = file('bom.xml', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), xml]));
    const { code, text } = await run(bom, '--key', key);
    expect(code).toBe(1);
    expect(text).toMatch(/FAIL {2}XML structure: the file begins with a UTF-8 byte order mark/);
    // the same bytes without it are valid
    expect((await run(good, '--key', key)).code).toBe(0);
  });

  it('refuses a byte order mark at the start of the signed manifest, even correctly signed', async () => {
    const xml = await resigned(readFileSync(good, 'utf8'), (json) => `\uFEFF${json}`);
    const { code, text } = await run(file('manifest-bom.xml', xml), '--key', key);
    expect(code).toBe(1);
    expect(text).toMatch(/FAIL {2}Manifest: /);
  });

  it.each([
    ['white space between tokens', (j: string) => j.replace('{"format":', '{ "format": ')],
    ['a \\u escape of a non-ASCII character', (j: string) => j.replace('Café', 'Caf\\u00e9')],
    ['a duplicate key', (j: string) => j.replace('"format":"firmware', '"format":"x","format":"firmware')],
    [
      'an integer written with a fraction',
      (j: string) => j.replace('"deviceLimit":4096', '"deviceLimit":4096.0'),
    ],
    [
      'an integer written with an exponent',
      (j: string) => j.replace('"deviceLimit":4096', '"deviceLimit":4.096e3'),
    ],
    [
      'an escaped slash',
      (j: string) => j.replace('firmware-release-portal/package', 'firmware-release-portal\\/package'),
    ],
  ])('refuses a correctly signed manifest with %s: the JSON has one form only (§5)', async (_what, edit) => {
    const { xml } = await buildSample({ note: 'Café build' });
    const original = xml.toString('utf8');
    const changed = await resigned(original, (j) => {
      const out = edit(j);
      expect(out).not.toBe(j);
      return out;
    });
    const { code, text } = await run(file('form.xml', changed), '--key', key);
    expect(code).toBe(1);
    expect(text).toMatch(/FAIL {2}Manifest: /);
    expect(text).not.toMatch(/VERDICT: VALID/);
    // the untouched file with the same note is valid
    expect((await run(file('form-ok.xml', original), '--key', key)).code).toBe(0);
  });

  it('--dev accepts an unsigned development package with the portal key, and says so loudly', async () => {
    const { xml } = await buildSample({ type: 'DEV_UNSIGNED' });
    const dev = file('dev-unsigned.xml', xml);
    // a device in the field (the default) refuses it
    const field = await run(dev, '--key', key);
    expect(field.code).toBe(1);
    expect(field.text).toMatch(/FAIL {2}Signature \(trusted key\): a DEV_UNSIGNED package is not signed/);
    const { code, text } = await run(dev, '--key', key, '--dev');
    expect(code).toBe(0);
    expect(text).toMatch(
      /^\*\*\* DEVELOPMENT MODE \(--dev\): an UNSIGNED development package was accepted \*\*\*\n/,
    );
    expect(text).toMatch(/PASS {2}Signature \(trusted key\): DEVELOPMENT MODE \(--dev\)/);
    expect(text).toMatch(/NOTE {2}DEVELOPMENT MODE: this package is NOT signed/);
    expect(text).toMatch(
      /VERDICT: VALID IN DEVELOPMENT MODE ONLY \(unsigned; a device in the field refuses it\)\n$/,
    );
  });

  it('--dev never accepts an unsigned release package, and changes nothing for a signed one', async () => {
    const { xml } = await buildSample({ type: 'RELEASE_UNSIGNED' });
    const { code, text } = await run(file('release-unsigned.xml', xml), '--key', key, '--dev');
    expect(code).toBe(1);
    expect(text).toMatch(/--dev accepts unsigned development packages only, never a release package/);
    expect(text).not.toMatch(/DEVELOPMENT MODE \(--dev\): an UNSIGNED/);
    const signed = await run(good, '--key', key, '--dev');
    expect(signed.code).toBe(0);
    expect(signed.text).toMatch(/VERDICT: VALID\n$/);
    expect(signed.text).not.toMatch(/DEVELOPMENT MODE/);
  });

  it('--dev without --key is a usage error (nothing is refused for being unsigned without a key)', async () => {
    const { code, text } = await run(good, '--dev');
    expect(code).toBe(2);
    expect(text).toMatch(/--dev needs --key/);
  });

  it('checks the patch config of a model against the manifest: a swapped metadata file is refused', async () => {
    const config = Buffer.from('{"modelName":"m","version":"1.0"}');
    const { xml } = await buildSample({ patchConfig: config });
    const text = xml.toString('utf8');
    const swapped = text.replace(
      config.toString('base64'),
      Buffer.from('{"modelName":"m","version":"6.6"}').toString('base64'),
    );
    expect(swapped).not.toBe(text);
    const r = await run(file('model-swapped.xml', swapped), '--key', key);
    expect(r.code).toBe(1);
    expect(r.text).toMatch(/FAIL {2}Patch config/);
  });
});

describe('npm run verify: devices in the field trust only the release key (decision 296)', () => {
  const releaseKey = join(dir, 'release.pem');
  const devKey = join(dir, 'dev.pem');
  let devSigned: string;
  let legacyDevSigned: string;
  let releaseSigned: string;
  beforeAll(async () => {
    writeFileSync(releaseKey, await testSigner().publicKeyPem());
    writeFileSync(devKey, await exampleSigner().publicKeyPem());
    devSigned = file(
      'dev-signed.xml',
      (await buildSample({ type: 'DEV_SIGNED', signer: exampleSigner() })).xml,
    );
    // signed before the keys were split: a development package with the release key's signature
    legacyDevSigned = file('dev-signed-legacy.xml', (await buildSample({ type: 'DEV_SIGNED' })).xml);
    releaseSigned = file('release-signed.xml', (await buildSample({ type: 'RELEASE_SIGNED' })).xml);
  });

  it('a field device (--key release.pem) refuses every development package, whatever key signed it', async () => {
    for (const pkg of [devSigned, legacyDevSigned]) {
      const { code, text } = await run(pkg, '--key', releaseKey);
      expect(code, pkg).toBe(1);
      expect(text).toMatch(
        /FAIL {2}Device policy: a DEV_SIGNED package is for devices in a development mode; a device in the field refuses every development package, whatever key signed it/,
      );
    }
    // the legacy one verifies with the release key: only the device policy refuses it
    expect((await run(legacyDevSigned, '--key', releaseKey)).text).toMatch(
      /PASS {2}Signature \(trusted key\)/,
    );
    // a field device given the development key as well still refuses it
    expect((await run(devSigned, '--key', releaseKey, '--key', devKey)).code).toBe(1);
    // and takes release packages signed by the release key, as before
    const ok = await run(releaseSigned, '--key', releaseKey);
    expect(ok.code).toBe(0);
    expect(ok.text).toMatch(/VERDICT: VALID\n$/);
  });

  it('a development device (--dev, the development key, the release key) accepts development packages, loudly', async () => {
    for (const pkg of [devSigned, legacyDevSigned]) {
      const { code, text } = await run(pkg, '--dev', '--key', devKey, '--key', releaseKey);
      expect(code, pkg).toBe(0);
      expect(text).toMatch(
        /^\*\*\* DEVELOPMENT MODE \(--dev\): a development package was accepted; a device in the field refuses it \*\*\*\n/,
      );
      expect(text).toMatch(/PASS {2}Device policy: DEVELOPMENT MODE \(--dev\)/);
      expect(text).toMatch(
        /VERDICT: VALID IN DEVELOPMENT MODE ONLY \(a development package; a device in the field refuses it\)\n$/,
      );
    }
    // the development key alone: its own packages, not the legacy ones, and no release package
    expect((await run(devSigned, '--dev', '--key', devKey)).code).toBe(0);
    expect((await run(legacyDevSigned, '--dev', '--key', devKey)).code).toBe(1);
    const release = await run(releaseSigned, '--dev', '--key', devKey);
    expect(release.code).toBe(1);
    expect(release.text).toMatch(
      /FAIL {2}Signature \(trusted key\): the signature does not verify with the trusted key: the trusted key differs/,
    );
    // both keys: a release package verifies with the release key, with no development banner
    const both = await run(releaseSigned, '--dev', '--key', devKey, '--key', releaseKey);
    expect(both.code).toBe(0);
    expect(both.text).toMatch(
      /PASS {2}Signature \(trusted key\): verifies with trusted key 2 of 2, the key in the file/,
    );
    expect(both.text).not.toMatch(/DEVELOPMENT MODE/);
  });

  it('reads every --key file and refuses a bad one by name', async () => {
    const bad = file('bad-key.pem', 'hello');
    const { code, text } = await run(releaseSigned, '--key', releaseKey, '--key', bad);
    expect(code).toBe(2);
    expect(text).toContain(`The key file ${bad} is not a PEM public key`);
  });
});
