import type { PendingDecisions } from '../../ports/pending-decisions';

/** Which packages wait for whom, set by the test (or the in-browser mock) that owns the packages. */
export class MemoryPendingDecisions implements PendingDecisions {
  private readonly waiting = new Map<string, Set<string>>();

  /** `packageName` now waits for a decision of `userId` (approval, signature or delivery approval). */
  wait(userId: string, packageName: string): void {
    const names = this.waiting.get(userId) ?? new Set<string>();
    names.add(packageName);
    this.waiting.set(userId, names);
  }

  /** `packageName` no longer waits for `userId` (decided, or deleted). */
  decided(userId: string, packageName: string): void {
    this.waiting.get(userId)?.delete(packageName);
  }

  async packagesWaitingFor(userId: string): Promise<string[]> {
    return [...(this.waiting.get(userId) ?? [])].sort();
  }
}
