import { inject } from 'vitest';
import { localDynamoConfig, localTable as tableName } from '../../infra/local/local-aws';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';

/** Base URL of the local stack started by global-setup (…/dev is the API). */
export const baseUrl = (): string => inject('baseUrl');
export const mailboxUrl = (): string => inject('mailboxUrl');

export interface ApiResult<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  method?: string;
  token?: string | null;
  /** JSON-serialised unless it is a string, Buffer, FormData or Blob */
  body?: unknown;
  headers?: Record<string, string>;
}

/** Calls the API of the run's shared stack over HTTP as the web app does. */
export function api<T = Record<string, unknown>>(
  path: string,
  opts: CallOptions = {},
): Promise<ApiResult<T>> {
  return apiAt<T>(baseUrl(), path, opts);
}

/** The reason a test that says nothing about it gives for a refusal, revocation or account deletion. */
export const TEST_REASON = 'the test no longer needs this account';

/** The deciding calls (decision 141): each carries the signer's password in its JSON body. */
export const DECIDING_CALL =
  /^\/(packages\/[^/?]+\/(approve|reject|generate-signed|reject-signing)|delivery\/packages\/[^/?]+\/(notify-approvers|approve|reject))$/;

/**
 * The body a deciding call (and a role grant) is sent with: a test that says nothing about the password
 * signs with the seeded users' password (every seeded user has it); a body naming `password` (even as
 * undefined, to send none) is sent as given. Tests of the password check itself: test/integration/signature.test.ts.
 */
export function withSignature(path: string, method: string | undefined, body: unknown): unknown {
  // a role grant is signed too, and so is a refusal or revocation, with a reason (decision 357)
  if (method === 'POST' && path === '/admin/users/roles') {
    if (typeof body !== 'object' || body === null || 'password' in body) return body;
    if ('grant' in body) return { ...body, password: SEED_PASSWORD };
    if ('refuse' in body) return { reason: TEST_REASON, ...body, password: SEED_PASSWORD };
    return body;
  }
  // deleting accounts is signed with a reason (decision 357): the spec's plain list is sent signed
  if (method === 'DELETE' && path === '/admin/users') {
    if (Array.isArray(body)) return { ids: body, password: SEED_PASSWORD, reason: TEST_REASON };
    const proofs = ['password', 'passkey', 'reauthTicket'];
    if (typeof body !== 'object' || body === null || proofs.some((k) => k in body)) return body;
    return { reason: TEST_REASON, ...body, password: SEED_PASSWORD };
  }
  if (method !== 'POST' || !DECIDING_CALL.test(path)) return body;
  if (body === undefined) return { password: SEED_PASSWORD };
  // a body that carries its own proof (a password, a passkey, a company ticket: decision 322) goes as given
  const proofs = ['password', 'passkey', 'reauthTicket'];
  if (typeof body !== 'object' || body === null || Buffer.isBuffer(body) || proofs.some((k) => k in body))
    return body;
  return { ...body, password: SEED_PASSWORD };
}

/** Calls the API of the stack at `base` (a stack a test started itself) over HTTP as the web app does. */
export async function apiAt<T = Record<string, unknown>>(
  base: string,
  path: string,
  given: CallOptions = {},
): Promise<ApiResult<T>> {
  const opts = { ...given, body: withSignature(path, given.method, given.body) };
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  // A fresh connection per call: a kept-alive socket the server closed after its 5 s idle timeout while
  // this process was busy (runVerifier's execFileSync blocks it for seconds on a loaded machine) failed
  // the next call with EPIPE / "other side closed" before the server saw it.
  headers.Connection ??= 'close';
  let body: RequestInit['body'];
  if (opts.body === undefined) body = undefined;
  else if (typeof opts.body === 'string' || opts.body instanceof FormData || opts.body instanceof Blob)
    body = opts.body as RequestInit['body'];
  else if (Buffer.isBuffer(opts.body)) body = new Uint8Array(opts.body);
  else {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(`${base}/dev${path}`, { method: opts.method ?? 'GET', headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** A token for a user (seeded users use the local password). */
export async function login(email: string, password = SEED_PASSWORD): Promise<string> {
  const r = await api<{ token: string; errorMessage?: string }>('/user/login', {
    method: 'POST',
    body: { login: email, password },
  });
  if (r.status !== 200) throw new Error(`login ${email} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.token;
}

export const SEEDED = {
  designDev: 'design-engineer-dev@example.com',
  designTest: 'design-engineer-test@example.com',
  reliability: 'reliability-engineer@example.com',
  release: 'sw-fw-release-engineer@example.com',
  lead: 'technical-leader@example.com',
  admin: 'admin@example.com',
} as const;

/** The second seeded admin: a role grant takes two (decision 180). Not in SEEDED, whose every
 * user `seededUsers()` signs in. */
export const SEEDED_ADMIN_2 = 'admin-2@example.com';

/** Parses a field the API sends as JSON text (spec §3: lists and users come as JSON text). */
export function jsonText<T>(value: unknown): T {
  if (typeof value !== 'string') throw new Error(`expected JSON text, got ${typeof value}`);
  return JSON.parse(value) as T;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Mails the local SES has received, newest last. */
export async function mails(to?: string): Promise<Mail[]> {
  const res = await fetch(`${mailboxUrl().replace(/\/$/, '')}/store`);
  const store = (await res.json()) as {
    emails: { destination: { to: string[] }; subject: string; body: { text?: string } }[];
  };
  return store.emails
    .map((e) => ({ to: e.destination.to.join(','), subject: e.subject, text: e.body.text ?? '' }))
    .filter((m) => !to || m.to.includes(to));
}

/**
 * The first mail to `to` that matches, waiting for it: workflow mail leaves through the outbox shortly
 * after the change that causes it (docs/decisions/095); undefined when none came within the time.
 */
export async function mailMatching(
  to: string,
  match: (m: Mail) => boolean,
  timeoutMs = 15_000,
): Promise<Mail | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mails(to)).find(match);
    if (found || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A unique suffix for names created by a test. */
export const uniq = (prefix: string): string =>
  `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

/** A DynamoDB document client on the test stack's DynamoDB Local, for checks the API cannot make. */
export async function localDynamo() {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBDocumentClient } = await import('@aws-sdk/lib-dynamodb');
  return DynamoDBDocumentClient.from(new DynamoDBClient(localDynamoConfig(inject('dynamoEndpoint'))));
}

/** Physical table names of the local stack. */
export const localTable = (name: 'users' | 'resources' | 'packages' | 'dcc' | 'audit'): string =>
  tableName(name);
