import { createHash, verify } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSigner } from './file-signer';

const dirs: string[] = [];
const tempKeyPath = () => {
  const d = mkdtempSync(join(tmpdir(), 'file-signer-'));
  dirs.push(d);
  return join(d, 'nested', 'signing-key.pem');
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('FileSigner', () => {
  it('creates a P-256 key on first use, readable by its owner only', async () => {
    const path = tempKeyPath();
    const signer = new FileSigner(path);
    expect(signer.keyId).toMatch(/^local-p256-[0-9a-f]{16}$/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(await signer.publicKeyPem()).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  });
  it('signs a digest so that its public key verifies the data', async () => {
    const signer = new FileSigner(tempKeyPath());
    const data = Buffer.from('manifest bytes');
    const sig = await signer.sign(createHash('sha256').update(data).digest());
    expect(verify('sha256', data, { key: await signer.publicKeyPem(), dsaEncoding: 'der' }, sig)).toBe(true);
  });
  it('reuses the key already on disk', async () => {
    const path = tempKeyPath();
    const first = new FileSigner(path);
    const id = first.keyId;
    const second = new FileSigner(path);
    expect(second.keyId).toBe(id);
    expect(await second.publicKeyPem()).toBe(await first.publicKeyPem());
  });
  it('refuses a key file others can read', () => {
    const path = tempKeyPath();
    void new FileSigner(path).keyId;
    chmodSync(path, 0o644);
    expect(() => new FileSigner(path).keyId).toThrow(/readable by its owner only/);
  });
  it('refuses a key that is not P-256', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const path = tempKeyPath();
    void new FileSigner(path).keyId;
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
    writeFileSync(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    expect(() => new FileSigner(path).keyId).toThrow(/not an ECDSA P-256 key/);
  });
});
