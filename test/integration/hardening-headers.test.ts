import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../../shared/api/runtime';
import { api, baseUrl } from '../support/api';
import { seededUser } from '../support/fixtures';
import { type RawResponse, rawRequest } from '../support/raw-http';

/**
 * The local server sends the security headers CloudFront's response headers policy sends in AWS: the
 * values of SECURITY_HEADERS (shared/api/runtime.ts, which the CDK stack uses too) on every answer — SPA
 * pages, assets, API successes and every kind of API error — with one deliberate difference, as in the
 * CDK policy: connect-src also names the storage origin that presigned URLs point at, or the SPA could
 * not PUT a large resource to it.
 */
let storageOrigin: string;

beforeAll(async () => {
  const designDev = await seededUser('designDev');
  const r = await api<{ resourceUrl: string }>('/resources/uploads', {
    method: 'POST',
    token: designDev.token,
    body: {
      name: `headers-probe-${Date.now()}`,
      resourceType: 'PATCH',
      resourceStage: 'DEV',
      fileName: 'probe.bin',
      sizeBytes: 20 * 1024 * 1024,
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  storageOrigin = new URL(r.body.resourceUrl).origin;
});

const directives = (csp: string) =>
  Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name!, values];
      }),
  );

function expectPolicyHeaders(what: string, headers: Record<string, string | string[] | undefined>) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    const got = headers[name.toLowerCase()];
    expect(typeof got, `${what}: one ${name} header`).toBe('string');
    if (name !== 'Content-Security-Policy') expect(got, `${what}: ${name}`).toBe(value);
  }
  const expected = directives(SECURITY_HEADERS['Content-Security-Policy']!);
  expected['connect-src'] = [...(expected['connect-src'] ?? []), storageOrigin];
  expect(directives(String(headers['content-security-policy'])), `${what}: Content-Security-Policy`).toEqual(
    expected,
  );
}

const get = (path: string, init: Partial<Parameters<typeof rawRequest>[1]> = {}): Promise<RawResponse> =>
  rawRequest(baseUrl(), { method: 'GET', path, ...init });

describe('security headers of the local server', () => {
  it('are the CloudFront policy on the SPA: the index, a client-side route, an asset, HEAD and a refused method', async () => {
    const pages: [string, RawResponse][] = [
      ['index', await get('/')],
      ['client route', await get('/packages/approve')],
      ['HEAD', await get('/', { method: 'HEAD' })],
      ['POST to the SPA', await get('/', { method: 'POST', body: '{}' })],
    ];
    const assets = resolve('web/dist/assets');
    const asset = existsSync(assets) ? readdirSync(assets).find((f) => f.endsWith('.js')) : undefined;
    if (asset) pages.push(['asset', await get(`/assets/${asset}`)]);
    for (const [what, r] of pages) {
      expect(r.status, what).toBeLessThan(500);
      expectPolicyHeaders(what, r.headers);
    }
    expect(pages[0]![1].status).toBe(200);
    expect(String(pages[0]![1].headers['content-type'])).toContain('text/html');
  });

  it('are the CloudFront policy on API answers: success, handler errors and the server’s own errors', async () => {
    const answers: [string, RawResponse][] = [
      ['200', await get('/dev/signing-key')],
      ['401 from the gate', await get('/dev/user/auth', { method: 'POST' })],
      [
        '400 from validation',
        await get('/dev/user/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{"login":""}',
        }),
      ],
      ['403 unknown route (API Gateway)', await get('/dev/no/such/route')],
      ['403 wrong method (API Gateway)', await get('/dev/user/login', { method: 'PUT' })],
      [
        '413 over the request limit',
        await get('/dev/user/login', { method: 'POST', body: Buffer.alloc(11 * 1024 * 1024, 32) }),
      ],
    ];
    for (const [what, r] of answers) {
      expectPolicyHeaders(what, r.headers);
      // API Gateway's own 413 for a body over 10 MB is plain text (it cannot be customised)
      if (r.status >= 400 && r.status !== 413)
        expect(String(r.headers['content-type']), what).toContain('application/json');
    }
    expect(answers.map(([what, r]) => [what, r.status < 500])).toEqual(answers.map(([what]) => [what, true]));
    expect(answers.slice(1).map(([, r]) => r.status)).toEqual([401, 400, 403, 403, 413]);
  });
});
