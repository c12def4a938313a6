import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalServer, siteSettingsFromEnv } from '../../infra/local/server';
import { approvalPolicyNameFromEnv, DEFAULT_APPROVAL_POLICY } from '../../shared/domain/approval-policies';
import { DEFAULT_SITE_SETTINGS } from '../../shared/site-settings';
import { baseUrl } from '../support/api';

/**
 * The footer's settings reach the SPA at run time as /config.json next to index.html: the stack writes
 * it from CDK context, the local server serves it from the environment (decision 094), with the stage's
 * approval policy by name beside them (decision 338).
 */
const approvalPolicy = approvalPolicyNameFromEnv() ?? DEFAULT_APPROVAL_POLICY;
let server: Server | undefined;
afterAll(async () => {
  if (server) await new Promise<void>((r) => server!.close(() => r()));
});

describe('config.json', () => {
  it('is served by the local stack next to the SPA, uncached, with the default settings', async () => {
    const r = await fetch(`${baseUrl()}/config.json`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.headers.get('cache-control')).toBe('no-cache');
    expect(await r.json()).toEqual({ ...DEFAULT_SITE_SETTINGS, approvalPolicy });
  });

  it('says what the environment sets, and a bad value stops the start', async () => {
    const site = siteSettingsFromEnv({
      COMPANY_NAME: 'Acme Medical Devices',
      COMPANY_ADDRESS: 'Acme HQ, Basel',
      TERMS_URL: 'https://acme.example/terms',
    });
    expect(site).toEqual({
      ...DEFAULT_SITE_SETTINGS,
      companyName: 'Acme Medical Devices',
      companyAddress: 'Acme HQ, Basel',
      termsUrl: 'https://acme.example/terms',
    });
    expect(() => siteSettingsFromEnv({ PRIVACY_URL: 'http://acme.example/privacy' })).toThrow(
      /privacyUrl must be an https/,
    );

    server = createLocalServer(tmpdir(), [], { siteSettings: site });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const r = await fetch(`http://127.0.0.1:${port}/config.json`);
    expect(await r.json()).toEqual({ ...site, approvalPolicy });
  });
});
