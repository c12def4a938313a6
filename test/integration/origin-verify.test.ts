import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOCATIONS_PATH } from '../../infra/local/stage-guard';
import { ORIGIN_VERIFY_HEADER } from '../../shared/domain/client-source';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { API_ERR } from '../../shared/messages';
import { SEEDED } from '../support/api';
import { type RawResponse, rawRequest } from '../support/raw-http';
import { type StackProcess, startStackProcess } from '../support/stack-process';

/**
 * The API only through CloudFront (decisions 208, 308): on a local stack started as every route runs in
 * AWS (ORIGIN_VERIFY_REQUIRED=true, the origin secret configured), a call without CloudFront's
 * origin-verify header, or with a wrong value, is refused with 403 and changes nothing; with the header it
 * is served. The refusal comes from the stage's web ACL (locally: the gateway's stage guard) before any
 * function runs: the gateway's invocation count does not move.
 */
const ORIGIN_SECRET = 'origin-secret-for-origin-verify-test-0123';

let stack: StackProcess;
beforeAll(async () => {
  stack = await startStackProcess({
    ORIGIN_VERIFY_SECRET: ORIGIN_SECRET,
    ORIGIN_VERIFY_REQUIRED: 'true',
    LOCAL_GATEWAY_STATS: 'true',
  });
}, 150_000);
afterAll(async () => {
  await stack?.stop();
});

const viaCloudFront = { [ORIGIN_VERIFY_HEADER]: ORIGIN_SECRET };

function call(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<RawResponse> {
  return rawRequest(stack.url, {
    method,
    path: `/dev${path}`,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const signIn = (headers: Record<string, string>) =>
  call('POST', '/user/login', headers, { login: SEEDED.admin, password: SEED_PASSWORD });

function expectRefused(r: RawResponse) {
  expect(r.status, r.text).toBe(403);
  expect(r.json).toEqual({ errorMessage: API_ERR.notThroughPortal });
}

/** How often the gateway invoked a handler, per route (Lambda's Invocations metric). */
async function invocations(): Promise<{ total: number; byRoute: Record<string, number> }> {
  const r = await rawRequest(stack.url, { method: 'GET', path: INVOCATIONS_PATH });
  expect(r.status, r.text).toBe(200);
  return r.json as { total: number; byRoute: Record<string, number> };
}

describe('a call that did not pass CloudFront', () => {
  it('is refused before any function runs: no handler is invoked, whatever the route', async () => {
    // a served call first, so the counter has seen the login handler
    expect((await signIn(viaCloudFront)).status).toBe(200);
    const before = await invocations();
    expect(before.byRoute.login).toBeGreaterThanOrEqual(1);
    const direct = [
      () => signIn({}),
      () => signIn({ [ORIGIN_VERIFY_HEADER]: 'a-guess' }),
      () => signIn({ [ORIGIN_VERIFY_HEADER]: `${ORIGIN_SECRET}x` }),
      () => call('GET', '/signing-key', {}),
      () => call('POST', '/user/register', {}, { email: 'x@example.com' }),
      () => call('GET', '/no-such-route', {}),
    ];
    for (const attempt of direct) expectRefused(await attempt());
    expect(await invocations()).toEqual(before);
    // the same call through CloudFront reaches its function: the count moves by exactly one
    expect((await signIn(viaCloudFront)).status).toBe(200);
    const after = await invocations();
    expect(after.total).toBe(before.total + 1);
    expect(after.byRoute.login).toBe(before.byRoute.login! + 1);
  });

  it('is refused on a public route without the header or with a wrong one, and served with it', async () => {
    expectRefused(await signIn({}));
    expectRefused(await signIn({ [ORIGIN_VERIFY_HEADER]: 'a-guess' }));
    expectRefused(await call('GET', '/signing-key', {}));
    const ok = await signIn(viaCloudFront);
    expect(ok.status, ok.text).toBe(200);
    expect(typeof (ok.json as { token?: unknown }).token).toBe('string');
  });

  it('is refused on a guarded route even with a valid token, and served with the header', async () => {
    const login = await signIn(viaCloudFront);
    const token = (login.json as { token: string }).token;
    const auth = { Authorization: `Bearer ${token}` };
    expectRefused(await call('POST', '/user/auth', auth, {}));
    // a refused logout changes nothing: the token still works afterwards
    expectRefused(await call('POST', '/user/logout', auth, {}));
    const restored = await call('POST', '/user/auth', { ...auth, ...viaCloudFront }, {});
    expect(restored.status, restored.text).toBe(200);
  });
});
