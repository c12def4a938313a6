import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSample, testSigner } from '../lambdas/services/artefact/xml-package.fixtures';
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
