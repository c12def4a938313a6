import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { MSG } from '../../shared/messages';
import { SEEDED } from '../support/api';
import { errorMessageOf, type RawResponse, rawRequest } from '../support/raw-http';
import { type StackProcess, startStackProcess } from '../support/stack-process';

/**
 * Password guessing against a stack of its own whose lockouts last seconds instead of minutes (the rules
 * are the production ones: five free failures, then a lockout that doubles; an address refused after too
 * many failures over any accounts). Each scenario guesses at its own seeded account from its own loopback
 * address (127.0.0.x), so the scenarios run side by side without touching each other's counters.
 */
const LOCK_BASE_SECONDS = 3;
// above the six failures the account scenarios make from one address, so the address limit (and its
// longer window) never decides those scenarios, however fast the machine is
const SOURCE_MAX_FAILURES = 8;
const SOURCE_WINDOW_SECONDS = 4;

let stack: StackProcess;
beforeAll(async () => {
  stack = await startStackProcess({
    LOGIN_LOCK_BASE_SECONDS: String(LOCK_BASE_SECONDS),
    LOGIN_MAX_FAILURES_PER_SOURCE: String(SOURCE_MAX_FAILURES),
    LOGIN_SOURCE_WINDOW_SECONDS: String(SOURCE_WINDOW_SECONDS),
  });
}, 150_000);
afterAll(async () => {
  await stack?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function signIn(from: string, login: string, password: string, headers: Record<string, string> = {}) {
  return rawRequest(stack.url, {
    method: 'POST',
    path: '/dev/user/login',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ login, password }),
    localAddress: from,
  });
}

const retryAfter = (r: RawResponse) => Number(r.headers['retry-after']);

/** The parts of a refusal an attacker can see, with the countdown's digits blanked. */
const visible = (r: RawResponse) => ({
  status: r.status,
  body: r.text.replace(/\d+/g, '#'),
  retryAfter: r.headers['retry-after'] !== undefined,
});

function expectThrottled(r: RawResponse, atMostSeconds: number) {
  expect(r.status, r.text).toBe(429);
  expect(errorMessageOf(r)).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ seconds\.$/);
  expect(retryAfter(r)).toBeGreaterThan(0);
  expect(retryAfter(r)).toBeLessThanOrEqual(atMostSeconds);
  expect(errorMessageOf(r)).toContain(`in ${retryAfter(r)} seconds`);
}

/** Five wrong passwords from one address, then the right one (refused before it is even looked at). */
async function guessFive(from: string, login: string) {
  const failures: RawResponse[] = [];
  for (let i = 0; i < 5; i++) failures.push(await signIn(from, login, `Wrong-Guess-${i}`));
  return { failures, sixth: await signIn(from, login, SEED_PASSWORD) };
}

describe.concurrent('password guessing', () => {
  it('locks an account after five wrong passwords, answers an unknown email the same way, and lets the owner in after the lockout', async () => {
    const email = SEEDED.lead;
    const unknown = `nobody-${Date.now()}@example.com`;
    const [owner, stranger] = await Promise.all([
      guessFive('127.0.0.11', email),
      guessFive('127.0.0.12', unknown),
    ]);
    for (const r of [...owner.failures, ...stranger.failures]) {
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ errorMessage: MSG.loginIncorrect, authError: MSG.loginIncorrect });
    }
    expectThrottled(owner.sixth, LOCK_BASE_SECONDS);
    expectThrottled(stranger.sixth, LOCK_BASE_SECONDS);
    expect(visible(stranger.sixth)).toEqual(visible(owner.sixth));

    await sleep(retryAfter(owner.sixth) * 1000 + 300);
    const after = await signIn('127.0.0.11', email, SEED_PASSWORD);
    expect(after.status, after.text).toBe(200);
    expect(typeof (after.json as { token?: unknown }).token).toBe('string');
    // a success clears the account's count: a typo afterwards is a plain 401, not a lockout
    expect((await signIn('127.0.0.11', email, 'One-More-Typo-1')).status).toBe(401);
    expect((await signIn('127.0.0.11', email, SEED_PASSWORD)).status).toBe(200);
  }, 60_000);

  it('doubles the lockout for each failure beyond the fifth', async () => {
    const email = SEEDED.reliability;
    const { failures, sixth } = await guessFive('127.0.0.13', email);
    expect(failures.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    expectThrottled(sixth, LOCK_BASE_SECONDS);
    await sleep(retryAfter(sixth) * 1000 + 300);

    expect((await signIn('127.0.0.13', email, 'Wrong-Again-1')).status).toBe(401);
    const second = await signIn('127.0.0.13', email, SEED_PASSWORD);
    expectThrottled(second, 2 * LOCK_BASE_SECONDS);
    expect(retryAfter(second)).toBeGreaterThan(LOCK_BASE_SECONDS);
    await sleep(retryAfter(second) * 1000 + 300);
    expect((await signIn('127.0.0.13', email, SEED_PASSWORD)).status).toBe(200);
  }, 60_000);

  it('refuses an address spraying one password over many accounts, says truly when to retry, and does not lock the owner out elsewhere', async () => {
    const email = SEEDED.designTest;
    const attacker = '127.0.0.21';
    // one failure per account: no account lockout can stop this
    const sprayed = await Promise.all(
      Array.from({ length: SOURCE_MAX_FAILURES }, (_, i) =>
        signIn(attacker, `victim-${i}-${Date.now()}@example.com`, 'Spring2026!'),
      ),
    );
    expect(sprayed.map((r) => r.status)).toEqual(sprayed.map(() => 401));
    const refused = await signIn(attacker, email, SEED_PASSWORD);
    expectThrottled(refused, SOURCE_WINDOW_SECONDS);
    // a forwarded-for header is not the source: it does not get the caller a fresh counter
    expectThrottled(
      await signIn(attacker, email, SEED_PASSWORD, { 'X-Forwarded-For': '203.0.113.9' }),
      SOURCE_WINDOW_SECONDS,
    );
    // the account itself is not locked: its owner signs in from elsewhere
    expect((await signIn('127.0.0.22', email, SEED_PASSWORD)).status).toBe(200);

    // once the announced time has passed the address may sign in again
    await sleep(retryAfter(refused) * 1000 + 1100);
    expect((await signIn(attacker, email, SEED_PASSWORD)).status).toBe(200);
    // and its old failures are forgotten: one more typo is a 401, and the right password still works
    expect((await signIn(attacker, email, 'A-Fresh-Typo-1')).status).toBe(401);
    expect((await signIn(attacker, email, SEED_PASSWORD)).status).toBe(200);
  }, 60_000);
});
