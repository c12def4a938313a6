import { setupServer } from 'msw/node';
import { type MemoryBackend, resetMemoryBackend } from '../../../../lambdas/testing/memory-composition';
import { apiHandlers } from './api';
import { seed } from './seed';

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

export { memoryBackend } from '../../../../lambdas/testing/memory-composition';
