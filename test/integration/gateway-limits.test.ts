import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalServer, type Handler, invocationBytes, toProxyEvent } from '../../infra/local/server';
import type { Route } from '../../shared/api/routes';
import {
  GATEWAY_ANSWERS,
  MAX_EVENT_BYTES,
  MAX_REQUEST_BYTES,
  MAX_RESPONSE_BYTES,
} from '../../shared/api/runtime';
import { api, baseUrl, jsonText, uniq } from '../support/api';
import { seededUser } from '../support/fixtures';
import { type RawResponse, rawRequest } from '../support/raw-http';

/**
 * The local gateway refuses exactly what API Gateway and Lambda refuse, with their answers
 * (docs/decisions/090-local-gateway-limits.md): a request body over 10 MB, an event of 6 MB or more after
 * base64 encoding of binary bodies, a response over 6 MB, an unknown path or method. Each boundary is
 * tested on both sides: exact sizes against a local server on its own port whose test rows echo sizes, and
 * the real routes (a 4 MiB direct upload, the SPA's threshold) against the run's local stack.
 */

const MiB = 1024 * 1024;

// ── exact boundaries: the local server with two test rows ─────────────────────────────────────────
const ECHO: Route = {
  id: 'limitsEcho',
  method: 'POST',
  path: '/limits/echo',
  access: 'public',
  uses: { tables: [] },
  summary: 'test row: answers with the size of the body it received',
};
const SIZED: Route = {
  id: 'limitsSized',
  method: 'GET',
  path: '/limits/sized/{bytes}',
  access: 'public',
  uses: { tables: [] },
  summary: 'test row: answers with a response whose JSON has exactly {bytes} bytes',
};

/** The response JSON of `body` as Lambda measures it. */
const resultOf = (body: string) => ({
  statusCode: 200,
  headers: { 'Content-Type': 'text/plain' },
  body,
  isBase64Encoded: false,
});
const handlers: Record<string, Handler> = {
  limitsEcho: async (event) => ({
    statusCode: 200,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      received: event.isBase64Encoded
        ? Buffer.from(event.body ?? '', 'base64').length
        : Buffer.byteLength(event.body ?? ''),
      eventBytes: invocationBytes(event),
    }),
    isBase64Encoded: false,
  }),
  limitsSized: async (event) => {
    const want = Number(event.pathParameters?.bytes);
    const overhead = invocationBytes(resultOf(''));
    return resultOf('x'.repeat(want - overhead));
  },
};

let local: Server;
let localBase: string;
let host: string;

beforeAll(async () => {
  local = createLocalServer(tmpdir(), [], {
    routes: [ECHO, SIZED],
    loadHandler: async (r) => handlers[r.id]!,
  });
  await new Promise<void>((r) => local.listen(0, '127.0.0.1', r));
  const { port } = local.address() as AddressInfo;
  localBase = `http://127.0.0.1:${port}`;
  host = `127.0.0.1:${port}`;
});

afterAll(async () => {
  await new Promise<void>((r) => local.close(() => r()));
});

/** Headers sent exactly as listed (node adds none), so the test can compute the event the server builds. */
const headersFor = (contentType: string, length: number) => ({
  Host: host,
  Connection: 'close',
  'Content-Type': contentType,
  'Content-Length': String(length),
});

/** The size of the proxy event the local server builds for a POST /limits/echo with this body. */
function eventBytes(contentType: string, body: Buffer): number {
  const h = headersFor(contentType, body.length);
  const rawHeaders = Object.entries(h).flat();
  const req = {
    method: 'POST',
    rawHeaders,
    headers: Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v])),
    socket: { remoteAddress: '127.0.0.1' },
  } as unknown as IncomingMessage;
  const url = new URL('http://localhost/dev/limits/echo');
  return invocationBytes(toProxyEvent(req, url, '/limits/echo', ECHO, {}, body, randomUUIDLike()));
}
const randomUUIDLike = () => '00000000-0000-4000-8000-000000000000';

/** The largest body (of `fill` bytes) whose event stays under Lambda's limit. */
function largestFitting(contentType: string, fill: number): number {
  let lo = 0;
  let hi = MAX_EVENT_BYTES;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (eventBytes(contentType, Buffer.alloc(mid, fill)) < MAX_EVENT_BYTES) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const post = (contentType: string, body: Buffer) =>
  rawRequest(localBase, {
    method: 'POST',
    path: '/dev/limits/echo',
    headers: headersFor(contentType, body.length),
    body,
  });

function expectGateway(r: RawResponse, answer: (typeof GATEWAY_ANSWERS)[keyof typeof GATEWAY_ANSWERS]) {
  expect(r.status).toBe(answer.status);
  expect(r.text).toBe(answer.body);
  expect(r.headers['content-type']).toBe(answer.contentType);
  if (answer.errorType) expect(r.headers['x-amzn-errortype']).toBe(answer.errorType);
}

describe("Lambda's 6 MB event limit, after base64 encoding of binary bodies", () => {
  it('passes a text body whose event is one byte under the limit, refuses one byte more', async () => {
    const fits = largestFitting('text/plain', 97);
    expect(eventBytes('text/plain', Buffer.alloc(fits, 97))).toBe(MAX_EVENT_BYTES - 1);
    const under = await post('text/plain', Buffer.alloc(fits, 97));
    expect(under.status, under.text.slice(0, 200)).toBe(200);
    expect(under.json).toEqual({ received: fits, eventBytes: MAX_EVENT_BYTES - 1 });

    const over = await post('text/plain', Buffer.alloc(fits + 1, 97));
    expectGateway(over, GATEWAY_ANSWERS.eventTooLarge);
    expect(over.text).toBe('{"message": "Request Too Long"}');
  });

  it('counts a binary body (multipart/form-data) base64-encoded: 4/3 of its bytes', async () => {
    const type = 'multipart/form-data; boundary=x';
    const fits = largestFitting(type, 1);
    // base64 turns about 4.5 MiB of upload into the whole 6 MiB event
    expect(fits).toBeGreaterThan(4.4 * MiB);
    expect(fits).toBeLessThan(4.5 * MiB);
    const under = await post(type, Buffer.alloc(fits, 1));
    expect(under.status, under.text.slice(0, 200)).toBe(200);
    expect((under.json as { received: number }).received).toBe(fits);
    expect((under.json as { eventBytes: number }).eventBytes).toBeLessThan(MAX_EVENT_BYTES);

    // the next base64 quantum crosses the limit
    const over = await post(type, Buffer.alloc(fits + 3, 1));
    expectGateway(over, GATEWAY_ANSWERS.eventTooLarge);
  });

  it('the same bytes as text pass where as binary they do not', async () => {
    const body = Buffer.alloc(5 * MiB, 97);
    expect((await post('text/plain', body)).status).toBe(200);
    expectGateway(await post('application/octet-stream', body), GATEWAY_ANSWERS.eventTooLarge);
  });
});

describe("API Gateway's 10 MB request limit", () => {
  it('refuses a body of 10485761 bytes with its plain-text 413; 10485760 bytes pass it (to meet the event limit)', async () => {
    const at = await post('text/plain', Buffer.alloc(MAX_REQUEST_BYTES, 97));
    // not API Gateway's answer: the body passed the gateway and Lambda refused the event
    expectGateway(at, GATEWAY_ANSWERS.eventTooLarge);
    const over = await post('text/plain', Buffer.alloc(MAX_REQUEST_BYTES + 1, 97));
    expectGateway(over, GATEWAY_ANSWERS.requestTooLarge);
    expect(over.text).toBe('HTTP content length exceeded 10485760 bytes.');
  });
});

describe("Lambda's 6 MB response limit", () => {
  it('returns a response of exactly 6291556 bytes, and answers 502 for one byte more', async () => {
    const ok = await rawRequest(localBase, {
      method: 'GET',
      path: `/dev/limits/sized/${MAX_RESPONSE_BYTES}`,
    });
    expect(ok.status).toBe(200);
    expect(invocationBytes(resultOf(ok.text))).toBe(MAX_RESPONSE_BYTES);

    const over = await rawRequest(localBase, {
      method: 'GET',
      path: `/dev/limits/sized/${MAX_RESPONSE_BYTES + 1}`,
    });
    expectGateway(over, GATEWAY_ANSWERS.internalServerError);
    expect(over.text).toBe('{"message": "Internal server error"}');
  });
});

describe('an unknown path or method', () => {
  it('answers 403 Missing Authentication Token, as API Gateway does, for both', async () => {
    for (const [method, path] of [
      ['GET', '/dev/no/such/route'],
      ['GET', '/dev/limits/echo'],
      ['DELETE', '/dev/limits/sized/1'],
      ['GET', '/dev'],
    ] as const) {
      const r = await rawRequest(localBase, { method, path });
      expectGateway(r, GATEWAY_ANSWERS.missingAuthenticationToken);
      expect(r.json, `${method} ${path}`).toEqual({ message: 'Missing Authentication Token' });
    }
    // a known path and method is not refused
    const known = await post('text/plain', Buffer.from('hi'));
    expect(known.status).toBe(200);
  });
});

// ── the real routes on the run's local stack ──────────────────────────────────────────────────────
describe('direct uploads on the local stack (the SPA sends at most 4 MiB this way)', () => {
  let token: string;
  beforeAll(async () => {
    token = (await seededUser('designDev')).token;
  });

  const upload = (name: string, bytes: Uint8Array) => {
    const form = new FormData();
    form.append('resourceFile', new Blob([new Uint8Array(bytes)]), `${name}.bin`);
    return api<{ resource?: string; message?: string }>(
      `/resources/patch/dev?name=${encodeURIComponent(name)}`,
      { method: 'POST', token, body: form },
    );
  };

  it('stores a 4 MiB patch sent as multipart/form-data', async () => {
    const name = uniq('direct-4mib');
    const bytes = randomBytes(4 * MiB);
    const r = await upload(name, bytes);
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(201);
    expect(jsonText<{ sizeBytes: number; name: string }>(r.body.resource)).toMatchObject({
      name,
      sizeBytes: 4 * MiB,
    });
  });

  it('refuses a 4.6 MiB patch sent as multipart/form-data with 413 Request Too Long, and stores nothing', async () => {
    const name = uniq('direct-too-big');
    const r = await upload(name, randomBytes(Math.round(4.6 * MiB)));
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ message: 'Request Too Long' });
    const list = await api<{ resources?: string }>('/resources/patch/dev', { token });
    expect(JSON.stringify(list.body)).not.toContain(name);
  });

  it('answers an unknown route of the real API with 403 and a known one normally', async () => {
    const r = await rawRequest(baseUrl(), { method: 'PATCH', path: '/dev/user/login' });
    expectGateway(r, GATEWAY_ANSWERS.missingAuthenticationToken);
    expect((await api('/signing-key')).status).toBe(200);
  });
});
