import { SEED_PASSWORD } from '../../shared/domain/seed-users';

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
