import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { seededApproverKeys } from '../support/seeded-approvers';

/**
 * A small API client for the bench, which runs outside vitest (test/support/api.ts takes its base URL
 * from vitest's inject()). Same calls, base URL passed in.
 */
export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
  bytes: number;
}

export interface Client {
  readonly baseUrl: string;
  call<T = Record<string, unknown>>(
    path: string,
    opts?: { method?: string; token?: string; body?: unknown },
  ): Promise<Reply<T>>;
  login(email: string): Promise<{ token: string; id: string }>;
}

export function makeClient(baseUrl: string): Client {
  const call = async <T>(
    path: string,
    opts: { method?: string; token?: string; body?: unknown } = {},
  ): Promise<Reply<T>> => {
    const headers: Record<string, string> = {};
    if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
    let body: RequestInit['body'];
    if (opts.body instanceof FormData) body = opts.body;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] = 'application/json';
    }
    const res = await fetch(`${baseUrl}/dev${path}`, { method: opts.method ?? 'GET', headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T, bytes: Buffer.byteLength(text) };
  };
  return {
    baseUrl,
    call,
    async login(email) {
      const r = await call<{ token: string; user: string }>('/user/login', {
        method: 'POST',
        body: { login: email, password: SEED_PASSWORD },
      });
      if (r.status !== 200) throw new Error(`login ${email}: ${r.status} ${JSON.stringify(r.body)}`);
      return { token: r.body.token, id: (JSON.parse(r.body.user) as { id: string }).id };
    },
  };
}

/** Fails with the answer when a call did not give the expected status. */
export function expectStatus<T>(r: Reply<T>, status: number, what: string): Reply<T> {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r;
}

export const SEEDED = {
  designDev: 'design-engineer-dev@example.com',
  designTest: 'design-engineer-test@example.com',
  reliability: 'reliability-engineer@example.com',
  release: 'sw-fw-release-engineer@example.com',
  lead: 'technical-leader@example.com',
  admin: 'admin@example.com',
} as const;

/**
 * Follows an upload the server accepted (202 VERIFYING) until it is registered (decision 173): polls its
 * state every 250 ms and answers the resource. A refusal or a failed check throws with the reason.
 */
export async function untilRegistered(
  api: Client,
  token: string,
  uploadId: string,
): Promise<{ id: string; sha256: string }> {
  for (;;) {
    const r = expectStatus(
      await api.call<{ state: string; resource?: string; errorMessage?: string }>(
        `/resources/uploads/${uploadId}`,
        { token },
      ),
      200,
      'upload state',
    );
    if (r.body.state === 'REGISTERED')
      return JSON.parse(r.body.resource ?? '{}') as { id: string; sha256: string };
    if (r.body.state === 'FAILED') throw new Error(`upload check failed: ${r.body.errorMessage}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The seeded users a package flow needs, signed in. */
export type FlowUsers = Record<
  'designDev' | 'designTest' | 'lead' | 'reliability' | 'release',
  { token: string; id: string }
>;

/** A DCC made by the draft's initiator and attached to the draft. */
export async function attachNewDcc(api: Client, token: string, pkgId: string, deviceId: string) {
  const dcc = expectStatus(
    await api.call<{ dccUuid: string }>('/dcc', {
      method: 'POST',
      token,
      body: { deviceId, telemetryType: 'TelB', messageLimit: 64, deviceLimit: 4096 },
    }),
    201,
    'dcc',
  );
  expectStatus(
    await api.call(`/packages/${pkgId}/dcc/${dcc.body.dccUuid}`, { method: 'POST', token }),
    200,
    'attach dcc',
  );
}

/**
 * A draft package up to its deciding call: a DCC made and attached, the policy's approvers notified and
 * all but the last approval given, in the policy's order (decision 272). Answers the last approver: their
 * deciding approval is the caller's to time.
 */
export async function approveAllButLast(
  api: Client,
  users: FlowUsers,
  pkgId: string,
  deviceId: string,
): Promise<{ token: string; id: string }> {
  const dev = users.designDev;
  await attachNewDcc(api, dev.token, pkgId, deviceId);
  // the bench's packages are development packages
  const chosen = seededApproverKeys('DEV_UNSIGNED');
  const approvers = chosen.map(({ role, key }) => ({ role, id: users[key].id }));
  expectStatus(
    await api.call(`/packages/${pkgId}/notify-approvers`, {
      method: 'POST',
      token: dev.token,
      body: { approvers },
    }),
    200,
    'notify',
  );
  for (const { key: k } of chosen.slice(0, -1))
    expectStatus(
      await api.call(`/packages/${pkgId}/approve`, {
        method: 'POST',
        token: users[k].token,
        body: { password: SEED_PASSWORD },
      }),
      202,
      `approve ${k}`,
    );
  return users[chosen.at(-1)!.key];
}

export interface ReadyPackage {
  downloadUrl?: string;
  sizeBytes: number;
  sha256: string;
}

/**
 * Polls the download route once a second until the package's XML is ready (the deciding call answers
 * 202 GENERATING and the worker generates it, decision 160); answers the presigned URL and the digest.
 */
export async function untilReady(
  api: Client,
  token: string,
  pkgId: string,
  timeoutMs: number,
): Promise<ReadyPackage & { downloadUrl: string }> {
  for (const deadline = performance.now() + timeoutMs; performance.now() < deadline; ) {
    const r = await api.call<ReadyPackage>(`/packages/${pkgId}`, { token });
    if (r.status === 200 && r.body.downloadUrl) return { ...r.body, downloadUrl: r.body.downloadUrl };
    await new Promise((res) => setTimeout(res, 1000));
  }
  throw new Error(`package ${pkgId} did not become ready in ${timeoutMs} ms`);
}
