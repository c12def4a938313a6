import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { MSG } from '../../shared/messages';
import { type Mail, SEEDED } from '../support/api';
import { errorMessageOf, type RawResponse, rawRequest } from '../support/raw-http';
import { type StackProcess, startStackProcess } from '../support/stack-process';

/**
 * Sign-in limits that a stranger cannot turn against the owner, on a stack of its own with short lockouts:
 * failures lock the (account, source) pair; the account as a whole slows down only after many distinct
 * sources failed; a wrong old password on a password change counts the same; the source is the real
 * client (the socket locally, the CloudFront viewer address only with CloudFront's origin secret), never a
 * header the client writes. Each scenario uses its own seeded account and its own loopback addresses.
 */
const LOCK_BASE_SECONDS = 2;
const ACCOUNT_MAX_SOURCES = 4;
const ORIGIN_SECRET = 'origin-secret-for-tests-0123456789';
const RESET_PER_SOURCE = 5;

let stack: StackProcess;
beforeAll(async () => {
  stack = await startStackProcess({
    LOGIN_LOCK_BASE_SECONDS: String(LOCK_BASE_SECONDS),
    // the per-source limit (over any accounts) is hardening-brute-force's subject; out of the way here
    LOGIN_MAX_FAILURES_PER_SOURCE: '1000',
    LOGIN_ACCOUNT_MAX_SOURCES: String(ACCOUNT_MAX_SOURCES),
    ORIGIN_VERIFY_SECRET: ORIGIN_SECRET,
    RESET_MAX_PER_SOURCE: String(RESET_PER_SOURCE),
  });
}, 150_000);
afterAll(async () => {
  await stack?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function call(
  path: string,
  from: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return rawRequest(stack.url, {
    method: 'POST',
    path: `/dev${path}`,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
    localAddress: from,
  });
}

const signIn = (from: string, login: string, password: string, headers: Record<string, string> = {}) =>
  call('/user/login', from, { login, password }, headers);

/** Headers as CloudFront sends them for a viewer at `ip` (with the origin secret, unless another is given). */
const viaCloudFront = (ip: string, secret = ORIGIN_SECRET) => ({
  'CloudFront-Viewer-Address': `${ip}:${40000 + Math.floor(Math.random() * 20000)}`,
  'X-Frp-Origin-Verify': secret,
});

const retryAfter = (r: RawResponse) => Number(r.headers['retry-after']);

function expectThrottled(r: RawResponse) {
  expect(r.status, r.text).toBe(429);
  expect(errorMessageOf(r)).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ seconds\.$/);
  expect(retryAfter(r)).toBeGreaterThan(0);
}

function expectSignedIn(r: RawResponse) {
  expect(r.status, r.text).toBe(200);
  expect(typeof (r.json as { token?: unknown }).token).toBe('string');
}

async function fiveWrong(from: string, login: string, headers: Record<string, string> = {}) {
  for (let i = 0; i < 5; i++) {
    const r = await signIn(from, login, `Wrong-Guess-${i}`, headers);
    expect(r.status, r.text).toBe(401);
    expect(r.json).toEqual({ errorMessage: MSG.loginIncorrect, authError: MSG.loginIncorrect });
  }
}

// many scrypt checks at once, and every sign-in appends to the account's audit chain (decision 320), so
// concurrent sign-ins of one account queue on its chain head: a generous guard on a busy 2-core machine
describe.concurrent('who a lockout stops', { timeout: 240_000 }, () => {
  it("five wrong passwords from a stranger's address lock that address, not the owner at their own", async () => {
    const email = SEEDED.lead;
    await fiveWrong('127.0.1.1', email);
    expectThrottled(await signIn('127.0.1.1', email, SEED_PASSWORD));
    // the owner, at their own address, is not slowed at all
    expectSignedIn(await signIn('127.0.1.2', email, SEED_PASSWORD));
    // and the owner's own typos, each forgiven by the next success, count as one failing source, not one
    // per typo: more cycles than the account-wide limit of sources still leave the account open
    for (let i = 0; i <= ACCOUNT_MAX_SOURCES; i++) {
      expect((await signIn('127.0.1.2', email, `Typo-${i}`)).status).toBe(401);
      expectSignedIn(await signIn('127.0.1.2', email, SEED_PASSWORD));
    }
  });

  it('slows the account for everyone only once many distinct sources have failed on it', async () => {
    const email = SEEDED.reliability;
    // one source short of the limit: several failures each, the owner elsewhere is untouched
    for (let s = 1; s < ACCOUNT_MAX_SOURCES; s++) {
      for (let i = 0; i < 2; i++)
        expect((await signIn(`127.0.2.${s}`, email, `Wrong-${s}-${i}`)).status).toBe(401);
    }
    expectSignedIn(await signIn('127.0.2.100', email, SEED_PASSWORD));
    // one more distinct source: now every source waits, the owner's included
    expect((await signIn(`127.0.2.${ACCOUNT_MAX_SOURCES}`, email, 'Wrong-last')).status).toBe(401);
    const owner = await signIn('127.0.2.100', email, SEED_PASSWORD);
    expectThrottled(owner);
    expect(retryAfter(owner)).toBeLessThanOrEqual(LOCK_BASE_SECONDS);
    // once the announced time has passed the owner is in again
    await sleep(retryAfter(owner) * 1000 + 300);
    expectSignedIn(await signIn('127.0.2.100', email, SEED_PASSWORD));
  });

  it('a wrong old password when changing the password counts like a failed sign-in of that pair', async () => {
    const email = SEEDED.release;
    const login = await signIn('127.0.4.2', email, SEED_PASSWORD);
    expectSignedIn(login);
    const token = (login.json as { token: string }).token;
    const change = (from: string, oldPassword: string) =>
      call(
        '/user/password',
        from,
        { oldPassword, newPassword: 'Another-Long-Pass-1' },
        { Authorization: `Bearer ${token}` },
      );
    for (let i = 0; i < 5; i++) {
      const r = await change('127.0.4.1', `Not-The-Old-${i}`);
      expect(r.status, r.text).toBe(403);
      expect(errorMessageOf(r)).toBe('Old password is incorrect');
    }
    // the pair is locked: the right old password is refused unchecked, and so is a sign-in from there
    expectThrottled(await change('127.0.4.1', SEED_PASSWORD));
    expectThrottled(await signIn('127.0.4.1', email, SEED_PASSWORD));
    // the account's owner elsewhere is unaffected
    expectSignedIn(await signIn('127.0.4.3', email, SEED_PASSWORD));
  });
});

describe.concurrent('which address a limit sees', { timeout: 240_000 }, () => {
  it('behind CloudFront (origin secret present) the viewer address is the source, not the socket', async () => {
    const email = SEEDED.designTest;
    // one edge connection (one socket address) carries two viewers
    await fiveWrong('127.0.3.1', email, viaCloudFront('198.51.100.7'));
    expectThrottled(await signIn('127.0.3.1', email, SEED_PASSWORD, viaCloudFront('198.51.100.7')));
    expectSignedIn(await signIn('127.0.3.1', email, SEED_PASSWORD, viaCloudFront('198.51.100.8')));
    // an IPv6 viewer is one source with its whole /64: another address in it does not get a fresh count
    await fiveWrong('127.0.3.1', email, viaCloudFront('2001:db8:7:1::10'));
    expectThrottled(await signIn('127.0.3.1', email, SEED_PASSWORD, viaCloudFront('2001:db8:7:1:ffff::99')));
    expectSignedIn(await signIn('127.0.3.1', email, SEED_PASSWORD, viaCloudFront('2001:db8:7:2::10')));
  });

  it('without the origin secret a viewer-address or forwarded-for header is ignored: the socket is the source', async () => {
    const email = SEEDED.designDev;
    await fiveWrong('127.0.3.2', email, viaCloudFront('198.51.100.20', 'a-guessed-secret'));
    // a fresh forged viewer, a forwarded-for header or no secret at all: still the same locked socket
    expectThrottled(await signIn('127.0.3.2', email, SEED_PASSWORD, viaCloudFront('198.51.100.21', 'x')));
    expectThrottled(
      await signIn('127.0.3.2', email, SEED_PASSWORD, {
        'CloudFront-Viewer-Address': '198.51.100.22:443',
        'X-Forwarded-For': '198.51.100.23',
      }),
    );
    // while the owner at another socket signs in
    expectSignedIn(await signIn('127.0.3.3', email, SEED_PASSWORD));
  });
});

/** Mails the stack's own SES received for an address. */
async function mailsTo(address: string): Promise<Mail[]> {
  const res = await fetch(`${stack.mailboxUrl.replace(/\/$/, '')}/store`);
  const store = (await res.json()) as { emails: { destination: { to: string[] }; subject: string }[] };
  return store.emails
    .filter((e) => e.destination.to.includes(address))
    .map((e) => ({ to: address, subject: e.subject, text: '' }));
}

const reset = (from: string, email: string) => call('/user/reset-password', from, { email });

describe.concurrent('password reset mails', { timeout: 240_000 }, () => {
  it('sends at most three mails to one address in 15 minutes, then answers 429 and sends none', async () => {
    const email = SEEDED.admin;
    // from three different sources: the address limit is per address, whoever asks
    for (const from of ['127.0.5.1', '127.0.5.2', '127.0.5.3']) {
      const r = await reset(from, email);
      expect(r.status, r.text).toBe(200);
    }
    expect(await mailsTo(email)).toHaveLength(3);
    const fourth = await reset('127.0.5.4', email);
    expect(fourth.status, fourth.text).toBe(429);
    expect(errorMessageOf(fourth)).toMatch(
      /^A temporary password was already sent 3 times in the last 15 minutes to this address\. Check your mailbox, or try again in \d+ minutes?\.$/,
    );
    expect(retryAfter(fourth)).toBeGreaterThan(0);
    expect(retryAfter(fourth)).toBeLessThanOrEqual(15 * 60);
    expect(await mailsTo(email)).toHaveLength(3);
    // the mailed temporary passwords still work beside the old one: the owner is not locked out
    expectSignedIn(await signIn('127.0.5.5', email, SEED_PASSWORD));
  });

  it('limits the requests of one source over any addresses, unknown ones included, and keeps answering unknown addresses with 404', async () => {
    const from = '127.0.6.1';
    for (let i = 0; i < RESET_PER_SOURCE; i++) {
      const r = await reset(from, `nobody-${i}-${Date.now()}@example.com`);
      expect(r.status, r.text).toBe(404);
      expect(r.json).toEqual({ errorMessage: 'User not found', authError: 'User not found' });
    }
    const refused = await reset(from, SEEDED.lead);
    expect(refused.status, refused.text).toBe(429);
    expect(errorMessageOf(refused)).toMatch(
      /^Too many password reset requests from your network address\. Try again in \d+ minutes?\.$/,
    );
    expect(await mailsTo(SEEDED.lead)).toHaveLength(0);
    // another source still gets its mail
    expect((await reset('127.0.6.2', SEEDED.lead)).status).toBe(200);
    expect(await mailsTo(SEEDED.lead)).toHaveLength(1);
  });
});
