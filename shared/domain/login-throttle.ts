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

/**
 * The account-wide slow-down (docs/decisions/076-pair-lockout.md): failures are locked per (account,
 * source) with DEFAULT_ACCOUNT_POLICY, so a stranger's guesses never lock the owner out of their own
 * source. The account as a whole is slowed, for every source, only once this many distinct sources have
 * failed on it within an hour of each other — a distributed guess — with a lockout that doubles for each
 * further new source.
 */
export const DEFAULT_ACCOUNT_WIDE_POLICY: ThrottlePolicy = {
  freeFailures: 20,
  baseLockSeconds: 30,
  maxLockSeconds: 900,
};

/** Password-reset mails (docs/decisions/076): per address and per source, in a window opened by the first. */
export const DEFAULT_RESET_LIMITS = {
  perAddress: 3,
  perSource: 20,
  windowSeconds: 15 * 60,
} as const;

/**
 * Registrations per source (decision 187): taken before any password is hashed, so a burst of
 * registrations from one client is refused cheaply and cannot slow everybody else's sign-in.
 */
export const DEFAULT_REGISTER_LIMITS = {
  perSource: 10,
  windowSeconds: 15 * 60,
} as const;

/** Whole minutes, rounded up, for messages that count down a window (at least 1). */
export const minutesToWait = (seconds: number): number => Math.max(1, Math.ceil(seconds / 60));
