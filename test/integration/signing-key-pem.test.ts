import { createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSample } from '../../lambdas/testing/artefact/xml-package.fixtures';
import { api } from '../support/api';
import { runVerifier } from '../support/package-flow';

/**
 * the signing key as a PEM file (GET /dev/signing-key.pem), the file `npm run verify --key`
 * reads; the JSON answer of GET /dev/signing-key saved as the key gets a clear refusal, not a decoder error.
 */
const dir = mkdtempSync(join(tmpdir(), 'signing-key-pem-'));
const xml = join(dir, 'package.xml');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  writeFileSync(xml, (await buildSample()).xml);
});

describe('GET /dev/signing-key.pem over HTTP', () => {
  it('serves the same public key as GET /dev/signing-key, as a PEM file, to anyone', async () => {
    const pem = await api<string>('/signing-key.pem');
    expect(pem.status).toBe(200);
    expect(pem.headers.get('content-type')).toBe('application/x-pem-file');
    expect(typeof pem.body).toBe('string');
    expect(pem.body).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    expect(createPublicKey(pem.body).asymmetricKeyType).toBe('ec');
    const json = await api<{ publicKeyPem: string }>('/signing-key');
    expect(pem.body.trim()).toBe(json.body.publicKeyPem.trim());
    expect((await api('/signing-key.pem', { method: 'POST' })).status).toBe(403);
  });

  it('serves two different keys, ?stage=release (the default) and ?stage=dev, with different ids; a bad stage is a 400', async () => {
    const release = await api<string>('/signing-key.pem?stage=release');
    const dev = await api<string>('/signing-key.pem?stage=dev');
    const plain = await api<string>('/signing-key.pem');
    for (const r of [release, dev]) {
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/x-pem-file');
      expect(r.body).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
      expect(createPublicKey(r.body).asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    }
    expect(plain.body).toBe(release.body);
    expect(dev.body).not.toBe(release.body);
    // case-insensitive, as the stage of every other path
    expect((await api<string>('/signing-key.pem?stage=DEV')).body).toBe(dev.body);

    const json = await api<{ publicKeyPem: string; keyId: string }>('/signing-key');
    const devJson = await api<{ publicKeyPem: string; keyId: string }>('/signing-key?stage=dev');
    expect(json.body.publicKeyPem.trim()).toBe(release.body.trim());
    expect(devJson.body.publicKeyPem.trim()).toBe(dev.body.trim());
    expect(devJson.body.keyId).toMatch(/^local-p256-[0-9a-f]{16}$/);
    expect(devJson.body.keyId).not.toBe(json.body.keyId);

    for (const path of [
      '/signing-key.pem?stage=prod',
      '/signing-key?stage=',
      '/signing-key.pem?stage=release,dev',
    ]) {
      const bad = await api<{ errorMessage: string }>(path);
      expect(bad.status, path).toBe(400);
      expect(bad.body.errorMessage, path).toMatch(/Stage must be 'dev' or 'release'/);
    }
  });

  it('is described in the OpenAPI document with its media type', async () => {
    const doc = await api<{ paths: Record<string, { get?: { responses: Record<string, unknown> } }> }>(
      '/openapi.json',
    );
    const ok = doc.body.paths['/signing-key.pem']?.get?.responses['200'] as { content: object };
    expect(Object.keys(ok.content)).toEqual(['application/x-pem-file']);
  });

  it('is the key file npm run verify reads; the JSON answer saved as a key is refused in plain words', async () => {
    const pemFile = join(dir, 'portal-key.pem');
    writeFileSync(pemFile, (await api<string>('/signing-key.pem')).body);
    // the sample is signed by the fixtures' key, not the portal's: the key is read, the signature refused
    const checked = runVerifier(xml, pemFile);
    expect(checked.code, checked.out).toBe(1);
    expect(checked.out).toMatch(/FAIL {2}Signature \(trusted key\)/);

    const jsonFile = join(dir, 'signing-key.json');
    writeFileSync(jsonFile, JSON.stringify((await api('/signing-key')).body));
    const refused = runVerifier(xml, jsonFile);
    expect(refused.code).toBe(2);
    expect(refused.out).toContain(`The key file ${jsonFile} is not a PEM public key: it is JSON`);
    expect(refused.out).toContain('curl -so portal-key.pem <portal>/dev/signing-key.pem');
    expect(refused.out).not.toMatch(/DECODER|asn1|routines/i);
  });
});
