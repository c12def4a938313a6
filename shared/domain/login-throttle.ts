/**
 * Login throttling rules (DESIGN §4). After `freeFailures` consecutive failures for one account, each
 * further attempt must wait a lockout that doubles per failure, capped at `maxLockSeconds`. Attempts
 * refused during a lockout are not counted, so the owner can sign in once the lockout has passed.
 */
export interface ThrottlePolicy {
  freeFailures: number;
  baseLockSeconds: number;
  maxLockSeconds: number;
}

export const DEFAULT_ACCOUNT_POLICY: ThrottlePolicy = {
  freeFailures: 5,
  baseLockSeconds: 30,
  maxLockSeconds: 900,
};

/** Seconds the caller must still wait, or 0 when an attempt is allowed now. */
export function lockRemainingSeconds(
  failures: number,
  lastFailureAt: Date | null,
  now: Date,
  policy: ThrottlePolicy = DEFAULT_ACCOUNT_POLICY,
): number {
  if (failures < policy.freeFailures || lastFailureAt === null) return 0;
  const lock = Math.min(
    policy.baseLockSeconds * 2 ** (failures - policy.freeFailures),
    policy.maxLockSeconds,
  );
  const elapsed = (now.getTime() - lastFailureAt.getTime()) / 1000;
  return elapsed >= lock ? 0 : Math.ceil(lock - elapsed);
}
