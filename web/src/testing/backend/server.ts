import type { Package } from '@shared/api/contracts/packages';
import type { PublicUser } from '@shared/api/contracts/user';
import type { PackageTombstone } from '@shared/domain/package-deletion';
import { setupServer } from 'msw/node';
import type { UserRecord } from '../../../../lambdas/ports/user-repository';
import { toPackage } from '../../../../lambdas/services/packages/package-deps';
import {
  type MemoryBackend,
  memoryBackend,
  resetMemoryBackend,
} from '../../../../lambdas/testing/memory-composition';
import { apiHandlers } from './api';
import { addPackage, addUser, seed } from './seed';

/** The component tests' MSW server: every API call answered by the real handlers (./api.ts). */
export const server = setupServer(...apiHandlers);

let tokens = new Map<string, string>();

/** A new memory backend holding the sample data (setup.ts calls it before each test). */
export async function freshBackend(): Promise<MemoryBackend> {
  const backend = resetMemoryBackend();
  tokens = await seed(backend);
  return backend;
}

/** A token the backend issued to sample user `userId` at sign-in (tests use it to start signed in). */
export function tokenOf(userId: string): string {
  const token = tokens.get(userId);
  if (!token) throw new Error(`no sample user ${userId}`);
  return token;
}

export { memoryBackend };

/** The package as the API would answer it now (undefined when there is none). */
export async function storedPackage(id: string): Promise<Package | undefined> {
  const p = await memoryBackend().packages.get(id);
  return p ? toPackage(p) : undefined;
}

/** Every stored package, as the API answers them. */
export async function storedPackages(): Promise<Package[]> {
  return (await memoryBackend().packages.listAll()).map(toPackage);
}

/** A package written into the backend as the services would have left it (tests of rare states). */
export const putPackage = (p: Package) => addPackage(memoryBackend(), p);

/** A user written into the backend (password MOCK_PASSWORD). */
export const putUser = (u: PublicUser) => addUser(memoryBackend(), u);

/** Whether a resource of this name is stored. */
export async function hasResource(name: string): Promise<boolean> {
  return (await memoryBackend().resources.listAll()).some((r) => r.name === name);
}

export { MEMORY_STORAGE_URL } from '../../../../lambdas/testing/memory-composition';

/** A sample package replaced by `p` (same id, same place in the lists), as the services would have left it. */
export async function replacePackage(p: Package): Promise<void> {
  const b = memoryBackend();
  const old = await b.packages.get(p.id);
  if (old) await b.packages.delete(old);
  await addPackage(b, { ...p, createdAt: old?.createdAt ?? p.createdAt });
}

/** A stored user changed by `change` (a state the tests start from, e.g. another admin's proposal). */
export async function changeUser(id: string, change: Partial<UserRecord>): Promise<void> {
  const users = memoryBackend().users;
  const u = await users.getById(id);
  if (!u) throw new Error(`no user ${id}`);
  const next = { ...u, ...change, version: u.version + 1 };
  if (!(await users.updateAll([{ next, expectedVersion: u.version }])))
    throw new Error(`user ${id} moved on`);
}

/**
 * Sample package `base` put in the middle of its XML generation (decision 160: GENERATING, 0 bytes done);
 * the test moves it on as the worker would: `progress(bytes)`, then `finish()` or `fail(reason)`.
 */
export async function generating(base: Package, bytesTotal = 4 * 1024 * 1024) {
  const b = memoryBackend();
  const job = { packageId: base.id, jobId: `job-${base.id}` };
  const by = base.signer ?? base.approvers.at(-1)?.user ?? base.initiator;
  await replacePackage({
    ...base,
    status: 'GENERATING',
    generation: {
      jobId: job.jobId,
      state: 'RUNNING',
      from: base.status,
      requestedBy: by,
      requestedAt: new Date().toISOString(),
      bytesDone: 0,
      bytesTotal,
    },
  });
  return {
    progress: (bytes: number) => b.packages.generationProgress(base.id, job.jobId, bytes),
    finish: () => b.packageService.runGeneration(job),
    fail: (reason: string) => b.packageService.failGeneration(job, reason),
  };
}

/** What is kept of a package an admin deleted: a later link to it says who, when and why. */
export async function putTombstone(t: PackageTombstone): Promise<void> {
  const b = memoryBackend();
  const [template] = await storedPackages();
  await addPackage(b, { ...template!, id: t.id, name: t.name });
  const record = await b.packages.get(t.id);
  await b.packages.delete(record!, { tombstone: t });
}
