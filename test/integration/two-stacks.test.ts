import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLocalEndpoints } from '../../infra/local/local-aws';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { apiAt, SEEDED } from '../support/api';
import { type StackProcess, startStackProcess } from '../support/stack-process';

/**
 * Two checkouts' `npm start` at the same moment: each stack is given only its own PORT and
 * DATA_DIR, as the README says, and picks its emulator ports itself. Both start, no emulator port is
 * shared, and each sees its own database: a token made on one is absent from the other.
 */
let stacks: StackProcess[] = [];
// no emulator port set: each stack picks its own (the defaults when free), as two laptops' checkouts do
const pickOwnPorts = { DYNAMODB_PORT: '', S3_PORT: '', SES_PORT: '' };

beforeAll(async () => {
  const started = await Promise.allSettled([
    startStackProcess(pickOwnPorts),
    startStackProcess(pickOwnPorts),
  ]);
  stacks = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}, 240_000);
afterAll(async () => {
  await Promise.all(stacks.map((s) => s.stop()));
});

async function signIn(stack: StackProcess, email: string): Promise<string> {
  const r = await apiAt<{ token: string }>(stack.url, '/user/login', {
    method: 'POST',
    body: { login: email, password: SEED_PASSWORD },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.token;
}

describe('two local stacks started together', () => {
  it('each runs its own emulators, on ports no other stack answers', () => {
    const [a, b] = stacks.map((s) => readLocalEndpoints(s.dataDir));
    const ports = [a!, b!].flatMap((e) => [e.dynamo, e.s3, e.ses]);
    expect(new Set(ports).size).toBe(6);
  });

  it('each sees its own database: what one makes, the other does not have', async () => {
    const [a, b] = stacks as [StackProcess, StackProcess];
    const tokenA = await signIn(a, SEEDED.designDev);
    const tokenB = await signIn(b, SEEDED.designDev);

    const made = await apiAt(a.url, '/access-tokens', {
      method: 'POST',
      token: tokenA,
      body: { name: 'made-on-stack-a', expiresInDays: 5, scopes: ['resources:upload'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);

    const onA = await apiAt<{ accessTokens: { name: string }[] }>(a.url, '/access-tokens', { token: tokenA });
    expect(onA.body.accessTokens.map((t) => t.name)).toContain('made-on-stack-a');
    const onB = await apiAt<{ accessTokens: { name: string }[] }>(b.url, '/access-tokens', { token: tokenB });
    expect(onB.status).toBe(200);
    expect(onB.body.accessTokens).toEqual([]);
    // and each has its own token keys: A's session is no session on B
    expect((await apiAt(b.url, '/access-tokens', { token: tokenA })).status).toBe(401);
  });
});
