import { inject } from 'vitest';
import type { Role } from '../../shared/domain/roles';
import { type DirectUser, directUsersAt, userRepositoryAt } from './direct-user-records';
import { noteWrittenAround } from './written-around';

export type { DirectUser };

/** The product's user repository on the shared stack's users table. */
const userRepository = () => userRepositoryAt(inject('dynamoEndpoint'));

/**
 * Creates `n` users through the product's own user repository, straight into the shared stack's table,
 * each with a token signed by the stack's key. For tests that need many signed-in people at once:
 * registering and signing in each over HTTP costs two scrypt hashes (about a second each on 2 cores).
 * They cannot sign in; they sign decisions with SEED_PASSWORD (decision 141), hashed with cheap scrypt
 * parameters (direct-user-records.ts). They are confirmed and their role is granted, unless `opts` says
 * otherwise (`granted: false` leaves the role REQUESTED, `confirmed: false` the address unconfirmed).
 */
export function directUsers(
  n: number,
  role: Role,
  name = 'Voter',
  opts: { granted?: boolean; confirmed?: boolean } = {},
): Promise<DirectUser[]> {
  return directUsersAt(
    { dynamoEndpoint: inject('dynamoEndpoint'), dataDir: inject('dataDir') },
    n,
    role,
    name,
    opts,
  );
}

/**
 * Moves the pending role proposal of `userId` `days` back in time, straight in the shared stack's table
 * (the stack's clock is the real one): a test of the 7-day lapse (decision 180).
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
