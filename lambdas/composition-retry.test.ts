import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A cold start that fails once must not fail forever: every lazily loaded dependency is loaded
 * again on the next invocation after a failure. The token key is read from a Secrets Manager stand-in on
 * 127.0.0.1 through the real SDK client (AWS_ENDPOINT_URL_SECRETS_MANAGER), which fails while `down`.
 */
let server: Server;
let down = true;
let calls = 0;
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:token-abc123';

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      calls += 1;
      const target = req.headers['x-amz-target'];
      const secretId = (JSON.parse(body || '{}') as { SecretId?: string }).SecretId;
      if (target !== 'secretsmanager.GetSecretValue' || secretId !== SECRET_ARN) {
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify({ __type: 'ResourceNotFoundException', message: 'no such secret' }));
        return;
      }
      if (down) {
        // not retried by the SDK within the call: the invocation fails, the next one must read again
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify({ __type: 'AccessDeniedException', message: 'not yet' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify({ ARN: SECRET_ARN, Name: 'token', SecretString: 'k'.repeat(64) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${port}`,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    TOKEN_SECRET_ARN: SECRET_ARN,
    TABLE_USERS: 'users',
    TABLE_AUDIT: 'audit',
  });
  delete process.env.TOKEN_SECRET;
  delete process.env.TABLE_PACKAGES;
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

describe('lazily loaded dependencies after a failed load (one module instance)', () => {
  it('reads the token secret again after a failed read, and builds the identity service then', async () => {
    const { loadUserService: users$ } = await import('./composition');
    down = true;
    await expect(users$()).rejects.toThrow(/not yet/);
    await expect(users$()).rejects.toThrow(/not yet/);
    const failedCalls = calls;
    expect(failedCalls).toBeGreaterThanOrEqual(2);

    down = false;
    const service = await users$();
    expect(service).toBeDefined();
    expect(typeof service.authenticate).toBe('function');
    // a success is kept: no more reads, the same service
    expect(await users$()).toBe(service);
    expect(calls).toBe(failedCalls + 1);
  });

  it('shares one load between concurrent callers', async () => {
    const { retryingLoad } = await import('./composition');
    let loads = 0;
    let fail = true;
    const get = retryingLoad(async () => {
      loads += 1;
      await new Promise((r) => setTimeout(r, 5));
      if (fail) throw new Error('cold start hiccup');
      return { n: loads };
    });
    const [a, b] = await Promise.allSettled([get(), get()]);
    expect(a.status).toBe('rejected');
    expect(b.status).toBe('rejected');
    expect(loads).toBe(1);
    fail = false;
    const [c, d] = await Promise.all([get(), get()]);
    expect(c).toBe(d);
    expect(loads).toBe(2);
  });

  it('a synchronously thrown load error is a rejection, and is retried', async () => {
    const { retryingLoad } = await import('./composition');
    let fail = true;
    const get = retryingLoad<string>(() => {
      if (fail) throw new Error('env not ready');
      return Promise.resolve('ok');
    });
    await expect(get()).rejects.toThrow('env not ready');
    fail = false;
    await expect(get()).resolves.toBe('ok');
  });

  it('builds the package service once its table is configured, after failing without it', async () => {
    const { packageService: packages$ } = await import('./composition-packages');
    expect(() => packages$()).toThrow(/TABLE_PACKAGES/);
    process.env.TABLE_PACKAGES = 'packages';
    const service = packages$();
    expect(service).toBeDefined();
    expect(packages$()).toBe(service);
  });

  it('a port resolved on first use is made again after its maker failed', async () => {
    const { lazy } = await import('./composition');
    let fail = true;
    const port = lazy(() => {
      if (fail) throw new Error('no bucket name');
      return { name: () => 'made' };
    });
    expect(() => port.name()).toThrow('no bucket name');
    fail = false;
    expect(port.name()).toBe('made');
  });
});
