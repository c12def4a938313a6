import { createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSample } from '../../lambdas/services/artefact/xml-package.fixtures';
import { api } from '../support/api';
import { runVerifier } from '../support/package-flow';

/**
 * Issue 25: the signing key as a PEM file (GET /dev/signing-key.pem), the file `npm run verify --key`
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
