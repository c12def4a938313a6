import { randomBytes, randomUUID, scryptSync } from 'node:crypto';
import { localAwsEnv, localTable } from '../../infra/local/local-aws';
import type { Role } from '../../shared/domain/roles';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { signToken, tokenSecretOf } from './tokens';
import { noteWrittenAround } from './written-around';

/** A user written straight into a stack's table, with a token signed by the stack's key. */
export interface DirectUser {
  id: string;
  name: string;
  email: string;
  token: string;
}

/** The product's user repository on the users table of the stack whose DynamoDB Local is `dynamoEndpoint`. */
export async function userRepositoryAt(dynamoEndpoint: string) {
  // the repository's client reads the endpoint from the environment on first use, as in the handlers
  Object.assign(process.env, localAwsEnv({ dynamo: dynamoEndpoint }));
  const { DynamoUserRepository } = await import('../../lambdas/adapters/dynamodb/user-repository');
  return new DynamoUserRepository(localTable('users'));
}

/** SEED_PASSWORD as a stored hash with cheap parameters (N=2^10): test users only. */
const salt = randomBytes(16);
const CHEAP_SEED_HASH = [
  'scrypt',
  1024,
  8,
  1,
  salt.toString('base64'),
  scryptSync(SEED_PASSWORD.normalize('NFC'), salt, 32, { N: 1024, r: 8, p: 1 }).toString('base64'),
].join('$');

const unique = (prefix: string): string =>
  `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

/**
 * `n` users created through the product's own user repository on the stack at `dynamoEndpoint` (data
 * folder `dataDir`), each with a token signed by that stack's key. They cannot sign in; they sign
 * decisions with SEED_PASSWORD (decision 141), hashed with cheap scrypt parameters (the stored
 * `scrypt$N$r$p$…` form carries them), so many concurrent signatures stay fast. Confirmed and granted
 * unless `opts` says otherwise. The integration tests' form, on the shared stack: direct-users.ts.
 */
export async function directUsersAt(
  stack: { dynamoEndpoint: string; dataDir: string },
  n: number,
  role: Role,
  name = 'Voter',
  opts: { granted?: boolean; confirmed?: boolean } = {},
): Promise<DirectUser[]> {
  const repo = await userRepositoryAt(stack.dynamoEndpoint);
  const secret = tokenSecretOf(stack.dataDir);
  const now = new Date().toISOString();
  return Promise.all(
    Array.from({ length: n }, async () => {
      const user = {
        id: randomUUID(),
        name,
        email: `${unique(name.toLowerCase().replace(/[^a-z0-9]+/g, '-'))}@example.com`,
        userRole: role,
        passwordHash: CHEAP_SEED_HASH,
        tokenVersion: 1,
        emailConfirmed: opts.confirmed ?? true,
        roleStatus: (opts.granted ?? true) ? ('GRANTED' as const) : ('REQUESTED' as const),
        createdAt: now,
        updatedAt: now,
        version: 1,
      };
      if (!(await repo.create(user))) throw new Error(`could not create ${user.email}`);
      // no registration or grant: the run's check of the record must know this account has none
      noteWrittenAround(
        stack.dataDir,
        [`USER#${user.id}`],
        'made by directUsers, with no registration or grant',
      );
      return {
        id: user.id,
        name,
        email: user.email,
        token: await signToken(secret, { sub: user.id, tv: 1 }),
      };
    }),
  );
}
