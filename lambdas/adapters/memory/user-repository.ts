import type { Role } from '../../../shared/domain/roles';
import type { AuditEvent } from '../../ports/audit-log';
import { type Clock, systemClock } from '../../ports/clock';
import type { PasskeyRecord } from '../../ports/passkey-repository';
import type { EmailToken, UserCommit, UserRecord, UserRepository } from '../../ports/user-repository';
import { MemoryAuditLog } from './audit-log';
import { ItemMap } from './item-map';

/** A throttle or quota counter, as the DynamoDB adapter keeps it under `THROTTLE#<key>`. */
interface Counter {
  failures?: number;
  lastFailureAt?: string;
  uses?: number;
  /** epoch seconds after which the counter is forgotten */
  expiresAt?: number;
}

const epoch = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * Users in memory with the DynamoDB adapter's rules: an address, compared without case, is claimed once
 * for ever (a deleted account keeps its claim); updates are conditional on the version; counters are
 * forgotten after their expiry. `clock` stands in for the time the DynamoDB adapter reads itself.
 */
export class MemoryUserRepository implements UserRepository {
  private readonly users = new Map<string, UserRecord>();
  /** lower-case address → the user holding it, or deleted */
  private readonly claims = new Map<string, { userId: string; deleted: boolean }>();
  private readonly tokens = new ItemMap<EmailToken>();
  private readonly counters = new Map<string, Counter>();
  /**
   * The passkeys of the accounts (MemoryPasskeyRepository keeps them here): in DynamoDB they live in the
   * users table, so an account's deletion takes them in the same transaction, and here in the same step.
   */
  readonly passkeyItems = new ItemMap<PasskeyRecord>();

  /**
   * `clock` stands in for the time the DynamoDB adapter reads itself; `audit` records the events of every
   * write with it (decision 283).
   */
  constructor(
    private readonly clock: Clock = systemClock,
    readonly audit: MemoryAuditLog = new MemoryAuditLog(clock),
  ) {}

  /** Whether the commit's link can be used (unused); the write that carries it fails otherwise. */
  private linkUsable(commit: UserCommit): boolean {
    const t = commit.usedLink && this.tokens.stored(commit.usedLink.tokenHash);
    return !commit.usedLink || (!!t && !t.usedAt);
  }

  /** What every write commits with its state: the link marked used, the events recorded. */
  private committed(commit: UserCommit): void {
    const t = commit.usedLink && this.tokens.stored(commit.usedLink.tokenHash);
    if (t && commit.usedLink) t.usedAt = commit.usedLink.at;
    this.audit.record(commit.events);
  }

  async record(events: readonly AuditEvent[]): Promise<void> {
    this.audit.record(events);
  }

  async create(user: UserRecord, replacing?: UserRecord, commit: UserCommit = {}): Promise<boolean> {
    const claim = user.email.toLowerCase();
    if (this.users.has(user.id)) return false;
    if (replacing) {
      // the adapter's conditions: the claim is still the expired registration's, unconfirmed, unchanged
      const held = this.claims.get(claim);
      const old = this.users.get(replacing.id);
      if (!held || held.deleted || held.userId !== replacing.id) return false;
      if (!old?.unconfirmedUntil || old.version !== replacing.version) return false;
    } else if (this.claims.has(claim)) return false;
    if (!this.linkUsable(commit)) throw new Error('conditional check failed: the link was used');
    if (replacing) this.users.delete(replacing.id);
    this.claims.set(claim, { userId: user.id, deleted: false });
    this.users.set(user.id, { ...user });
    this.committed(commit);
    return true;
  }

  async confirmRegistration(
    next: UserRecord,
    expectedVersion: number,
    commit: UserCommit = {},
  ): Promise<'ok' | 'conflict'> {
    if (this.users.get(next.id)?.version !== expectedVersion) return 'conflict';
    if (this.claims.get(next.email.toLowerCase())?.userId !== next.id) return 'conflict';
    if (!this.linkUsable(commit)) return 'conflict';
    this.users.set(next.id, stripUndefined({ ...next, unconfirmedUntil: undefined }));
    this.committed(commit);
    return 'ok';
  }

  async getById(id: string): Promise<UserRecord | null> {
    const u = this.users.get(id);
    return u ? { ...u } : null;
  }

  async getByEmail(email: string): Promise<UserRecord | null> {
    const claim = this.claims.get(email.toLowerCase());
    return claim && !claim.deleted ? this.getById(claim.userId) : null;
  }

  async list(): Promise<UserRecord[]> {
    return [...this.users.values()].map((u) => ({ ...u }));
  }

  async listByRole(role: Role): Promise<UserRecord[]> {
    return (await this.list()).filter((u) => u.userRole === role);
  }

  async update(
    next: UserRecord,
    expectedVersion: number,
    previousEmail: string,
    commit: UserCommit = {},
  ): Promise<'ok' | 'conflict' | 'emailTaken'> {
    const newClaim = next.email.toLowerCase();
    const oldClaim = previousEmail.toLowerCase();
    const emailChanged = newClaim !== oldClaim;
    // the order of the adapter's cancellation reasons: a taken address is told before a lost race
    if (emailChanged && this.claims.has(newClaim)) return 'emailTaken';
    if (this.users.get(next.id)?.version !== expectedVersion) return 'conflict';
    if (emailChanged && this.claims.get(oldClaim)?.userId !== next.id) return 'conflict';
    if (!this.linkUsable(commit)) return 'conflict';
    if (emailChanged) {
      this.claims.set(newClaim, { userId: next.id, deleted: false });
      this.claims.delete(oldClaim);
    }
    this.users.set(next.id, stripUndefined(next));
    this.committed(commit);
    return 'ok';
  }

  async delete(user: UserRecord, _at: string, commit: UserCommit = {}): Promise<boolean> {
    const stored = this.users.get(user.id);
    if (!stored || !this.linkUsable(commit)) return false;
    for (const id of stored.passkeyIds ?? []) this.passkeyItems.delete(id);
    this.users.delete(user.id);
    this.claims.set(user.email.toLowerCase(), { userId: user.id, deleted: true });
    this.committed(commit);
    return true;
  }

  async discard(user: UserRecord, commit: UserCommit = {}): Promise<boolean> {
    if (this.users.get(user.id)?.version !== user.version || !this.linkUsable(commit)) return false;
    this.users.delete(user.id);
    if (this.claims.get(user.email.toLowerCase())?.userId === user.id)
      this.claims.delete(user.email.toLowerCase());
    this.committed(commit);
    return true;
  }

  async updateAll(
    changes: { next: UserRecord; expectedVersion: number }[],
    commit: UserCommit = {},
  ): Promise<boolean> {
    if (changes.some((c) => this.users.get(c.next.id)?.version !== c.expectedVersion)) return false;
    if (!this.linkUsable(commit)) return false;
    for (const c of changes) this.users.set(c.next.id, stripUndefined(c.next));
    this.committed(commit);
    return true;
  }

  async putEmailToken(token: EmailToken): Promise<void> {
    this.tokens.putNew(token.tokenHash, token);
  }

  async getEmailToken(tokenHash: string): Promise<EmailToken | null> {
    return this.tokens.get(tokenHash);
  }

  async markEmailTokenUsed(tokenHash: string, at: string): Promise<boolean> {
    const t = this.tokens.stored(tokenHash);
    if (!t || t.usedAt) return false;
    t.usedAt = at;
    return true;
  }

  /** The counter under `key` while it is remembered at `now` (the adapter's test: expiry not before now). */
  private live(key: string, now: Date): Counter | undefined {
    const c = this.counters.get(key);
    return c && (c.expiresAt === undefined || c.expiresAt >= epoch(now)) ? c : undefined;
  }

  async getThrottle(key: string) {
    const c = this.live(key, this.clock.now());
    return c
      ? { failures: c.failures ?? 0, lastFailureAt: c.lastFailureAt ?? null }
      : { failures: 0, lastFailureAt: null };
  }

  async recordFailure(
    key: string,
    at: string,
    expiresAtEpoch: number,
  ): Promise<{ failures: number; firstInWindow: boolean }> {
    const before = this.live(key, new Date(at));
    const failures = (before?.failures ?? 0) + 1;
    this.counters.set(key, { ...before, failures, lastFailureAt: at, expiresAt: expiresAtEpoch });
    return { failures, firstInWindow: before === undefined };
  }

  async forgiveFailures(key: string): Promise<void> {
    const c = this.counters.get(key);
    if (c) c.failures = 0;
  }

  async clearThrottle(key: string): Promise<void> {
    this.counters.delete(key);
  }

  async takeQuota(
    key: string,
    limit: number,
    windowSeconds: number,
    at: Date,
  ): ReturnType<UserRepository['takeQuota']> {
    const now = epoch(at);
    if (limit < 1) return { ok: false, retryAfterSeconds: windowSeconds };
    const c = this.counters.get(key);
    if (c?.expiresAt === undefined || c.expiresAt <= now) {
      this.counters.set(key, { ...c, uses: 1, expiresAt: now + windowSeconds });
      return { ok: true };
    }
    if ((c.uses ?? 0) < limit) {
      c.uses = (c.uses ?? 0) + 1;
      return { ok: true };
    }
    return { ok: false, retryAfterSeconds: Math.max(1, c.expiresAt - now) };
  }

  async returnQuota(key: string): Promise<void> {
    const c = this.counters.get(key);
    if (c && (c.uses ?? 0) > 0) c.uses = (c.uses ?? 0) - 1;
  }
}

/** As DynamoDB stores an item written with `removeUndefinedValues`: members set to undefined are gone. */
function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
