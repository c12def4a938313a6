import { randomBytes, randomUUID } from 'node:crypto';
import type {
  AccountRequest,
  ChangePasswordRequest,
  PublicUser,
  RegisterRequest,
} from '../../shared/api/contracts/user';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
} from '../../shared/domain/errors';
import {
  DEFAULT_ACCOUNT_POLICY,
  DEFAULT_ACCOUNT_WIDE_POLICY,
  DEFAULT_RESET_LIMITS,
  lockRemainingSeconds,
  minutesToWait,
  type ThrottlePolicy,
} from '../../shared/domain/login-throttle';
import type { Role } from '../../shared/domain/roles';
import { API_ERR, MSG } from '../../shared/messages';
import type { AuditLog } from '../ports/audit-log';
import type { Clock } from '../ports/clock';
import type { Mailer } from '../ports/mailer';
import type { PendingDecisions } from '../ports/pending-decisions';
import type { UserRecord, UserRepository } from '../ports/user-repository';
import { dummyHash, hashPassword, verifyPassword } from './password-hasher';
import type { TokenService } from './token-service';

export interface Caller {
  id: string;
  name: string;
  email: string;
  userRole: Role;
}

export interface UserServiceConfig {
  /** minutes a mailed temporary password stays valid */
  tempPasswordMinutes: number;
  /** failures from one source address, each within `sourceWindowSeconds` of the last, before it is refused */
  maxFailuresPerSource: number;
  /** seconds a source's failures are remembered after its last one (default 15 minutes) */
  sourceWindowSeconds?: number;
  /** the lockout of one (account, source) pair (default: 5 free failures, then 30 s doubling, at most 15 minutes) */
  accountPolicy?: ThrottlePolicy;
  /** the account-wide slow-down, counted in distinct failing sources (default: 20 sources, then 30 s doubling) */
  accountWidePolicy?: ThrottlePolicy;
  /** password-reset mails per address and requests per source, per window (default 3 and 20 per 15 minutes) */
  resetLimits?: { perAddress: number; perSource: number; windowSeconds: number };
  appUrl: string;
  /** when non-empty, only emails of these domains may register or be taken by an account (lower case) */
  allowedEmailDomains: readonly string[];
}

const DEFAULT_SOURCE_WINDOW_SECONDS = 15 * 60;
/** An account's failures are remembered this long after the last one: beyond the longest lockout. */
const ACCOUNT_MEMORY_SECONDS = 60 * 60;

/** Throttle keys: one (account, source) pair; one account (its distinct failing sources); one source. */
const pairKey = (email: string, source: string) => `login#${email.toLowerCase()}#${source}`;
const accountKey = (email: string) => `account#${email.toLowerCase()}`;
const sourceKey = (source: string) => `source#${source}`;

export function toPublicUser(u: UserRecord): PublicUser {
  return { id: u.id, name: u.name, email: u.email, userRole: u.userRole };
}

export class UserService {
  constructor(
    private readonly users: UserRepository,
    private readonly tokens: TokenService,
    private readonly mailer: Mailer,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly config: UserServiceConfig,
    /** packages waiting for a user's decision; deleting such a user is refused (decision 078) */
    private readonly pendingDecisions?: PendingDecisions,
  ) {}

  async login(
    login: string,
    password: string,
    sourceIp: string,
  ): Promise<{ token: string; user: PublicUser }> {
    const email = login.trim().toLowerCase();
    const now = this.clock.now();
    await this.refuseWhileThrottled(email, sourceIp, now);

    const user = await this.users.getByEmail(email);
    let ok = false;
    let usedTemporary = false;
    if (!user) {
      await verifyPassword(password, await dummyHash());
    } else if (await verifyPassword(password, user.passwordHash)) {
      ok = true;
    } else if (
      user.tempPasswordHash &&
      user.tempPasswordExpiresAt &&
      new Date(user.tempPasswordExpiresAt) > now &&
      (await verifyPassword(password, user.tempPasswordHash))
    ) {
      ok = true;
      usedTemporary = true;
    }

    if (!ok || !user) {
      await this.recordSignInFailure(email, sourceIp);
      throw new UnauthorizedError(API_ERR.wrongPassword, { authError: API_ERR.wrongPassword });
    }

    // forgiven, not forgotten: this source stays counted once among the account's failing sources
    await this.users.forgiveFailures(pairKey(email, sourceIp));
    // The first password that works ends the other: a used temporary password becomes the password;
    // the old password still working means the reset was not the owner's, so the temporary one is dropped.
    if (user.tempPasswordHash) {
      const next: UserRecord = {
        ...user,
        passwordHash: usedTemporary ? user.tempPasswordHash : user.passwordHash,
        tempPasswordHash: undefined,
        tempPasswordExpiresAt: undefined,
        updatedAt: now.toISOString(),
        version: user.version + 1,
      };
      await this.users.update(next, user.version, user.email);
      if (usedTemporary)
        await this.recordUserEvent(
          user,
          'PASSWORD_RESET_USED',
          'signs in with a mailed temporary password, which becomes the password',
        );
    }
    const token = await this.tokens.issue({ sub: user.id, tv: user.tokenVersion }, now);
    return { token, user: toPublicUser(user) };
  }

  /**
   * Refuses (429 with Retry-After) a password check while one of the three limits holds: the (account,
   * source) pair is locked, the account is slowed because many sources failed on it, or the source failed
   * too often over any accounts. The same answer for unknown and known accounts.
   */
  private async refuseWhileThrottled(email: string, source: string, now: Date): Promise<void> {
    const [pair, account, src] = await Promise.all([
      this.users.getThrottle(pairKey(email, source)),
      this.users.getThrottle(accountKey(email)),
      this.users.getThrottle(sourceKey(source)),
    ]);
    const at = (iso: string | null) => (iso ? new Date(iso) : null);
    const wait = Math.max(
      lockRemainingSeconds(
        pair.failures,
        at(pair.lastFailureAt),
        now,
        this.config.accountPolicy ?? DEFAULT_ACCOUNT_POLICY,
      ),
      lockRemainingSeconds(
        account.failures,
        at(account.lastFailureAt),
        now,
        this.config.accountWidePolicy ?? DEFAULT_ACCOUNT_WIDE_POLICY,
      ),
    );
    if (wait > 0) throw new TooManyRequestsError(API_ERR.tooManyAttempts(wait), wait);
    const sourceWindow = this.config.sourceWindowSeconds ?? DEFAULT_SOURCE_WINDOW_SECONDS;
    if (src.failures >= this.config.maxFailuresPerSource && src.lastFailureAt) {
      // refused until the window after the last counted failure has passed: Retry-After says exactly that
      const sourceWait = Math.ceil(
        (Date.parse(src.lastFailureAt) + sourceWindow * 1000 - now.getTime()) / 1000,
      );
      if (sourceWait > 0) throw new TooManyRequestsError(API_ERR.tooManyAttempts(sourceWait), sourceWait);
    }
  }

  /** Counts a wrong password: on the pair, on the source, and on the account when this source is new to it. */
  private async recordSignInFailure(email: string, source: string): Promise<void> {
    // lockouts run from the failure, not from the request's start: the hash check takes a while
    const failedAt = this.clock.now();
    const iso = failedAt.toISOString();
    const epoch = Math.floor(failedAt.getTime() / 1000);
    const sourceWindow = this.config.sourceWindowSeconds ?? DEFAULT_SOURCE_WINDOW_SECONDS;
    const [pair] = await Promise.all([
      this.users.recordFailure(pairKey(email, source), iso, epoch + ACCOUNT_MEMORY_SECONDS),
      this.users.recordFailure(sourceKey(source), iso, epoch + sourceWindow),
    ]);
    if (pair.firstInWindow)
      await this.users.recordFailure(accountKey(email), iso, epoch + ACCOUNT_MEMORY_SECONDS);
  }

  /** The signed-in user for a bearer token, or an UnauthorizedError (invalid, expired, revoked, deleted). */
  async authenticate(token: string | null): Promise<UserRecord> {
    if (!token) throw new UnauthorizedError(API_ERR.missingToken);
    const claims = await this.tokens.verify(token, this.clock.now());
    if (!claims) throw new UnauthorizedError(API_ERR.invalidToken);
    const user = await this.users.getById(claims.sub);
    if (!user || user.tokenVersion !== claims.tv) throw new UnauthorizedError(API_ERR.invalidToken);
    return user;
  }

  async logout(user: UserRecord): Promise<void> {
    await this.bumpTokenVersion(user);
  }

  private assertAllowedDomain(email: string) {
    const allowed = this.config.allowedEmailDomains;
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    if (allowed.length > 0 && !allowed.includes(domain)) {
      throw new BadRequestError(`Use your company email address (${allowed.map((d) => `@${d}`).join(', ')})`);
    }
  }

  async register(req: RegisterRequest): Promise<PublicUser> {
    this.assertAllowedDomain(req.email);
    const now = this.clock.now().toISOString();
    const user: UserRecord = {
      id: randomUUID(),
      name: req.name,
      email: req.email,
      userRole: req.userRole,
      passwordHash: await hashPassword(req.password),
      tokenVersion: 1,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    if (!(await this.users.create(user))) throw new ConflictError(MSG.registerConflict);
    await this.recordUserEvent(user, 'USER_REGISTERED', `registers as ${user.userRole}`);
    return toPublicUser(user);
  }

  /** Creates a user with any role, the admin role included; for seeding only, never exposed over HTTP. */
  async seed(name: string, email: string, role: Role, password: string): Promise<boolean> {
    const now = this.clock.now().toISOString();
    return this.users.create({
      id: randomUUID(),
      name,
      email,
      userRole: role,
      passwordHash: await hashPassword(password),
      tokenVersion: 1,
      createdAt: now,
      updatedAt: now,
      version: 1,
    });
  }

  async changePassword(
    user: UserRecord,
    req: ChangePasswordRequest,
    sourceIp: string,
  ): Promise<{ token: string }> {
    // a stolen session must not become a way to guess the password: the same limits as sign-in
    await this.refuseWhileThrottled(user.email, sourceIp, this.clock.now());
    if (!(await verifyPassword(req.oldPassword, user.passwordHash))) {
      await this.recordSignInFailure(user.email, sourceIp);
      throw new ForbiddenError(API_ERR.oldPasswordWrong, { authError: API_ERR.oldPasswordWrong });
    }
    await this.users.forgiveFailures(pairKey(user.email, sourceIp));
    const now = this.clock.now();
    const next: UserRecord = {
      ...user,
      passwordHash: await hashPassword(req.newPassword),
      tempPasswordHash: undefined,
      tempPasswordExpiresAt: undefined,
      tokenVersion: user.tokenVersion + 1,
      updatedAt: now.toISOString(),
      version: user.version + 1,
    };
    await this.mustUpdate(next, user);
    await this.recordUserEvent(user, 'PASSWORD_CHANGED', 'changes their password; earlier sessions end');
    // Every earlier token is revoked; the caller gets a fresh one so this session carries on.
    return { token: await this.tokens.issue({ sub: user.id, tv: next.tokenVersion }, now) };
  }

  async updateAccount(user: UserRecord, req: AccountRequest): Promise<PublicUser> {
    if (req.name === user.name && req.email === user.email && req.userRole === user.userRole) {
      return toPublicUser(user);
    }
    if (req.email !== user.email) this.assertAllowedDomain(req.email);
    const next: UserRecord = {
      ...user,
      name: req.name,
      email: req.email,
      userRole: req.userRole,
      updatedAt: this.clock.now().toISOString(),
      version: user.version + 1,
    };
    const result = await this.users.update(next, user.version, user.email);
    if (result === 'emailTaken') throw new ConflictError(MSG.registerConflict);
    if (result === 'conflict')
      throw new ConflictError('Your account was changed meanwhile; reload and try again');
    await this.recordUserEvent(user, 'ACCOUNT_UPDATED', 'changes their name, email or role', {
      before: toPublicUser(user),
      after: toPublicUser(next),
    });
    return toPublicUser(next);
  }

  async resetPassword(emailRaw: string, sourceIp: string): Promise<void> {
    const email = emailRaw.trim().toLowerCase();
    const limits = this.config.resetLimits ?? DEFAULT_RESET_LIMITS;
    const windowMinutes = Math.round(limits.windowSeconds / 60);
    // every request counts for its source, known address or not (it also bounds probing for addresses)
    const fromSource = await this.users.takeQuota(
      `reset-source#${sourceIp}`,
      limits.perSource,
      limits.windowSeconds,
      this.clock.now(),
    );
    if (!fromSource.ok)
      throw new TooManyRequestsError(
        API_ERR.tooManyResetsFromSource(minutesToWait(fromSource.retryAfterSeconds)),
        fromSource.retryAfterSeconds,
      );
    const user = await this.users.getByEmail(email);
    if (!user) throw new NotFoundError(API_ERR.userNotFound, { authError: API_ERR.userNotFound });
    const addressKey = `reset#${email}`;
    const toAddress = await this.users.takeQuota(
      addressKey,
      limits.perAddress,
      limits.windowSeconds,
      this.clock.now(),
    );
    if (!toAddress.ok)
      throw new TooManyRequestsError(
        API_ERR.tooManyResetsForAddress(
          limits.perAddress,
          windowMinutes,
          minutesToWait(toAddress.retryAfterSeconds),
        ),
        toAddress.retryAfterSeconds,
      );
    try {
      await this.issueTemporaryPassword(user);
    } catch (e) {
      // no mail went out: it does not count against the address
      await this.users.returnQuota(addressKey).catch(() => undefined);
      throw e;
    }
    await this.recordUserEvent(
      user,
      'PASSWORD_RESET_REQUESTED',
      'a temporary password is mailed to the account address',
    );
  }

  private async issueTemporaryPassword(user: UserRecord): Promise<void> {
    const now = this.clock.now();
    const temp = randomBytes(12).toString('base64url');
    const expires = new Date(now.getTime() + this.config.tempPasswordMinutes * 60_000);
    const next: UserRecord = {
      ...user,
      tempPasswordHash: await hashPassword(temp),
      tempPasswordExpiresAt: expires.toISOString(),
      updatedAt: now.toISOString(),
      version: user.version + 1,
    };
    await this.mustUpdate(next, user);
    try {
      await this.sendTemporaryPassword(user, temp);
    } catch (e) {
      // The mail did not go out, so nothing may have changed: the stored record goes back exactly as it
      // was (an earlier temporary password the owner did receive keeps working). Conditional on our own
      // write, so a change someone made meanwhile is never undone; if the restore fails too, the unmailed
      // temporary password simply expires.
      await this.users.update(user, next.version, user.email).catch(() => undefined);
      throw e;
    }
  }

  private async sendTemporaryPassword(user: UserRecord, temp: string): Promise<void> {
    await this.mailer.send({
      to: user.email,
      subject: 'Firmware Release Portal: your temporary password',
      text: [
        `Hello ${user.name},`,
        '',
        'Someone asked for a new password for your Firmware Release Portal account.',
        `Temporary password: ${temp}`,
        '',
        `It works for ${this.config.tempPasswordMinutes} minutes. Your old password keeps working until one of the two is used;`,
        'if you did not ask for this, sign in with your old password and the temporary one stops working.',
        '',
        `Sign in: ${this.config.appUrl}/login`,
        'After signing in, choose a new password under Settings → Change password.',
      ].join('\n'),
    });
  }

  async listUsers(): Promise<PublicUser[]> {
    return (await this.users.list()).map(toPublicUser);
  }

  async deleteUsers(admin: UserRecord, ids: string[]): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.includes(admin.id)) throw new ForbiddenError('You cannot delete your own account');
    const found = await Promise.all(unique.map((id) => this.users.getById(id)));
    const missing = unique.filter((_, i) => !found[i]);
    if (missing.length > 0) throw new NotFoundError(`No user with id ${missing.join(', ')}`);
    await this.refuseDeletingPendingDeciders(found.filter((u): u is UserRecord => u !== null));
    await this.users.delete(unique, this.clock.now().toISOString());
    for (const u of found) {
      if (u)
        await this.audit.append({
          subject: `USER#${u.id}`,
          action: 'USER_DELETED',
          meaning: `deletes the account of ${u.email}; the email cannot register again`,
          actorId: admin.id,
          actorName: admin.name,
          actorRole: admin.userRole,
        });
    }
  }

  /** No package may be left waiting for someone who no longer exists: such users are kept (409). */
  private async refuseDeletingPendingDeciders(users: UserRecord[]): Promise<void> {
    if (!this.pendingDecisions) throw new Error('user deletion needs the pending-decisions port');
    const pending = this.pendingDecisions;
    const waiting = await Promise.all(
      users.map(async (u) => ({ u, names: await pending.packagesWaitingFor(u.id) })),
    );
    const blocked = waiting.filter((w) => w.names.length > 0);
    if (blocked.length > 0)
      throw new ConflictError(
        `Cannot delete: ${blocked
          .map(
            (w) =>
              `${w.u.email} is awaited as approver or signer of ${w.names.map((n) => `'${n}'`).join(', ')}`,
          )
          .join('; ')}. Delete those packages or let them be decided first.`,
      );
  }

  private async bumpTokenVersion(user: UserRecord): Promise<void> {
    const next = {
      ...user,
      tokenVersion: user.tokenVersion + 1,
      updatedAt: this.clock.now().toISOString(),
      version: user.version + 1,
    };
    await this.mustUpdate(next, user);
  }

  private async mustUpdate(next: UserRecord, prev: UserRecord): Promise<void> {
    const result = await this.users.update(next, prev.version, prev.email);
    if (result !== 'ok') throw new ConflictError('Your account was changed meanwhile; reload and try again');
  }

  private recordUserEvent(
    user: UserRecord,
    action: string,
    meaning: string,
    details?: Record<string, unknown>,
  ) {
    return this.audit.append({
      subject: `USER#${user.id}`,
      action,
      meaning,
      actorId: user.id,
      actorName: user.name,
      actorRole: user.userRole,
      details,
    });
  }
}
