import { randomBytes, randomUUID, scryptSync } from 'node:crypto';
import { inject } from 'vitest';
import { localAwsEnv, localTable } from '../../infra/local/local-aws';
import type { Role } from '../../shared/domain/roles';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { uniq } from './api';
import { signToken, tokenSecretOf } from './tokens';
import { noteWrittenAround } from './written-around';

export interface DirectUser {
  id: string;
  name: string;
  email: string;
  token: string;
}

/** The product's user repository on the shared stack's users table. */
async function userRepository() {
  // the repository's client reads the endpoint from the environment on first use, as in the handlers
  Object.assign(process.env, localAwsEnv({ dynamo: inject('dynamoEndpoint') }));
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

/**
 * Creates `n` users through the product's own user repository, straight into the shared stack's table,
 * each with a token signed by the stack's key. For tests that need many signed-in people at once:
 * registering and signing in each over HTTP costs two scrypt hashes (about a second each on 2 cores).
 * They cannot sign in; they sign decisions with SEED_PASSWORD (decision 141), whose hash here uses cheap
 * scrypt parameters (the stored `scrypt$N$r$p$…` form carries them), so 100 concurrent signatures stay
 * fast. They are confirmed and their role is granted, unless `opts` says
 * otherwise (`granted: false` leaves the role REQUESTED, `confirmed: false` the address unconfirmed).
 */
export async function directUsers(
  n: number,
  role: Role,
  name = 'Voter',
  opts: { granted?: boolean; confirmed?: boolean } = {},
): Promise<DirectUser[]> {
  const repo = await userRepository();
  const secret = tokenSecretOf(inject('dataDir'));
  const now = new Date().toISOString();
  return Promise.all(
    Array.from({ length: n }, async () => {
      const user = {
        id: randomUUID(),
        name,
        email: `${uniq(name.toLowerCase().replace(/[^a-z0-9]+/g, '-'))}@example.com`,
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
      noteWrittenAround(
        inject('dataDir'),
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

/**
 * Moves the pending role proposal of `userId` `days` back in time, straight in the shared stack's table
 * (the stack's clock is the real one): a test of the 7-day lapse (issue 23, decision 180).
 */
export async function ageRoleProposal(userId: string, days: number): Promise<void> {
  const repo = await userRepository();
  const u = await repo.getById(userId);
  if (!u?.roleProposal) throw new Error(`no pending proposal for ${userId}`);
  const proposedAt = new Date(Date.parse(u.roleProposal.proposedAt) - days * 86_400_000).toISOString();
  const next = { ...u, roleProposal: { ...u.roleProposal, proposedAt }, version: u.version + 1 };
  if (!(await repo.updateAll([{ next, expectedVersion: u.version }])))
    throw new Error(`could not age the proposal of ${userId}`);
  noteWrittenAround(inject('dataDir'), [`USER#${userId}`], 'its role proposal aged by ageRoleProposal');
}
