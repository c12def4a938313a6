import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { apiAt, SEEDED } from '../support/api';
import { type StackProcess, startStackProcess } from '../support/stack-process';
import { kidOf, tokenKeysOf } from '../support/tokens';

/**
 * Rotating the token signing key on a running local stack (decision 215), with the operator's
 * script (`npm run ops:rotate-token-key -- … --local`): a signed-in user's token keeps working after the
 * rotation, new sign-ins get the new kid, and once the old key is retired the old token is refused (401).
 * A stack of its own (the key set is changed under it), with a one-second key cache so the warm
 * handlers' re-read is not waited for minutes.
 */
let stack: StackProcess;
const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');

const call = (path: string, token?: string) => apiAt(stack.url, path, { token });

async function signIn(email: string): Promise<string> {
  const r = await apiAt<{ token: string }>(stack.url, '/user/login', {
    method: 'POST',
    body: { login: email, password: SEED_PASSWORD },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.token;
}

/** Runs the rotation script against this stack's data folder; its exit code and output. */
async function rotateTokenKey(command: string, ...args: string[]) {
  try {
    const r = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/rotate-token-key.ts',
        command,
        '--local',
        '--data-dir',
        stack.dataDir,
        ...args,
      ],
      { cwd: ROOT },
    );
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  stack = await startStackProcess({ TOKEN_KEYS_CACHE_SECONDS: '1' });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
}, 60_000);

describe('rotating the token signing key while a user is signed in', () => {
  it('keeps the old token valid, gives new sign-ins the new kid, and refuses the old token once its key is retired', async () => {
    const firstKid = tokenKeysOf(stack.dataDir)[0]!.kid;
    const old = await signIn(SEEDED.admin);
    expect(kidOf(old)).toBe(firstKid);
    expect((await call('/admin/users', old)).status).toBe(200);

    const rotated = await rotateTokenKey('rotate');
    expect(rotated.code, rotated.out).toBe(0);
    const keys = tokenKeysOf(stack.dataDir);
    expect(keys.map((k) => k.kid)).toEqual([expect.not.stringMatching(firstKid), firstKid]);
    const newKid = keys[0]!.kid;
    expect(rotated.out).toContain(newKid);
    expect(rotated.out).not.toContain(keys[0]!.secret);

    // the running handlers pick the new key up without a restart
    const fresh = await waitFor('a sign-in with the new key', async () => {
      const t = await signIn(SEEDED.designDev);
      return kidOf(t) === newKid ? t : undefined;
    });
    expect((await call('/dev/packages', fresh)).status).toBe(200);
    expect((await call('/admin/users', old)).status).toBe(200);

    // rotating again now would drop the previous key under live sessions: refused without --force
    const again = await rotateTokenKey('rotate');
    expect(again.code, again.out).toBe(2);
    expect(again.out).toMatch(/retire it first/);
    expect(tokenKeysOf(stack.dataDir).map((k) => k.kid)).toEqual([newKid, firstKid]);

    const retired = await rotateTokenKey('retire');
    expect(retired.code, retired.out).toBe(0);
    expect(tokenKeysOf(stack.dataDir).map((k) => k.kid)).toEqual([newKid]);

    const refused = await waitFor('the old token refused', async () => {
      const r = await call('/admin/users', old);
      return r.status === 401 ? r : undefined;
    });
    expect(typeof (refused.body as { errorMessage?: unknown }).errorMessage).toBe('string');
    expect((await call('/dev/packages', fresh)).status).toBe(200);
    // and a sign-in now still works, with the new key
    expect(kidOf(await signIn(SEEDED.admin))).toBe(newKid);
  }, 120_000);
});
