import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { type Mail, SEEDED } from '../support/api';
import { errorMessageOf, type RawResponse, rawRequest } from '../support/raw-http';
import { type StackProcess, startStackProcess } from '../support/stack-process';

/**
 * registration is limited per source before any password is hashed, so a burst of registrations
 * from one client is refused cheaply and nobody else's sign-in waits behind it. On a stack of its own with
 * a small limit (the shared stack raises it: its tests all register from one address; a small one keeps
 * the accepted hashes few on a busy test machine — the default is DEFAULT_REGISTER_LIMITS).
 */
const PER_SOURCE = 3;
let stack: StackProcess;
beforeAll(async () => {
  stack = await startStackProcess({
    LOGIN_MAX_FAILURES_PER_SOURCE: '1000',
    REGISTER_MAX_PER_SOURCE: String(PER_SOURCE),
  });
}, 150_000);
afterAll(async () => {
  await stack?.stop();
});

const post = (path: string, from: string, body: unknown): Promise<RawResponse> =>
  rawRequest(stack.url, {
    method: 'POST',
    path: `/dev${path}`,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    localAddress: from,
    timeoutMs: 120_000,
  });

const register = (from: string, i: number) =>
  post('/user/register', from, {
    name: 'Burst Registrant',
    email: `burst-${from.replaceAll('.', '-')}-${i}@example.com`,
    password: 'Burst-Register-1',
    userRole: 'TECHNICAL_LEADER',
  });

async function mailsTo(address: string): Promise<Pick<Mail, 'to' | 'subject'>[]> {
  const res = await fetch(`${stack.mailboxUrl.replace(/\/$/, '')}/store`);
  const store = (await res.json()) as { emails: { destination: { to: string[] }; subject: string }[] };
  return store.emails
    .map((e) => ({ to: e.destination.to.join(','), subject: e.subject }))
    .filter((m) => m.to.includes(address));
}

describe('registrations per source', () => {
  it('refuses most of 40 concurrent registrations from one source with 429, and a sign-in from another source meanwhile succeeds', async () => {
    const burst = Array.from({ length: 40 }, (_, i) => register('127.0.23.1', i));
    // started while the burst is in flight; it must be answered with a token, whatever the burst does
    const signIn = post('/user/login', '127.0.23.2', { login: SEEDED.lead, password: SEED_PASSWORD });
    const [answers, own] = await Promise.all([Promise.all(burst), signIn]);
    expect(own.status, own.text).toBe(200);
    expect(typeof (own.json as { token?: unknown }).token).toBe('string');

    const created = answers.filter((r) => r.status === 201);
    const refused = answers.filter((r) => r.status === 429);
    const log = answers.map((r) => `${r.status} ${r.text}`).join('\n');
    expect(created.length + refused.length, log).toBe(40);
    expect(created.length, log).toBe(PER_SOURCE);
    expect(refused.length, log).toBe(40 - PER_SOURCE);
    for (const r of refused) {
      expect(errorMessageOf(r)).toMatch(
        /^Too many registrations from your network address\. Try again in \d+ minutes?\.$/,
      );
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    // a refused registration stored nothing and mailed nothing
    const refusedEmails = answers
      .map((r, i) => ({ r, email: `burst-127-0-23-1-${i}@example.com` }))
      .filter(({ r }) => r.status === 429);
    for (const { email } of refusedEmails.slice(0, 5)) {
      expect(await mailsTo(email)).toHaveLength(0);
      const reset = await post('/user/reset-password', '127.0.23.3', { email });
      expect(reset.status).toBe(404);
    }
  }, 300_000);

  it('counts per source: another source still registers', async () => {
    const r = await register('127.0.23.4', 0);
    expect(r.status, r.text).toBe(201);
  }, 60_000);
});
