import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type {
  AccountRequest,
  ChangePasswordRequest,
  DecideRolesRequest,
  PublicUser,
  RegisterRequest,
} from '../../shared/api/contracts/user';
import {
  AppError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
} from '../../shared/domain/errors';
import {
  EMAIL_LINK_HOURS,
  emailConfirmedOf,
  holdsAuthority,
  roleStatusOf,
} from '../../shared/domain/identity';
import {
  DEFAULT_ACCOUNT_POLICY,
  DEFAULT_ACCOUNT_WIDE_POLICY,
  DEFAULT_RESET_LIMITS,
  lockRemainingSeconds,
  minutesToWait,
  type ThrottlePolicy,
} from '../../shared/domain/login-throttle';
import { type Role, roleLabel } from '../../shared/domain/roles';
import { API_ERR, MSG } from '../../shared/messages';
import { logger } from '../middleware/logging';
import type { AuditLog } from '../ports/audit-log';
import type { Clock } from '../ports/clock';
import type { Mailer } from '../ports/mailer';
import type { PendingDecisions } from '../ports/pending-decisions';
import type { EmailToken, UserRecord, UserRepository } from '../ports/user-repository';
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
  const roleStatus = roleStatusOf(u);
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    userRole: u.userRole,
    roleStatus,
    ...(roleStatus === 'REQUESTED' ? { requestedRole: u.userRole } : {}),
    ...(u.pendingEmail ? { pendingEmail: u.pendingEmail } : {}),
  };
}

/** SHA-256 of a mailed token: only this is stored, so a read of the table cannot confirm anything. */
export const hashEmailToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Confirmation mails asked for one address within the window before 429 (issue 12). */
const CONFIRM_MAILS_PER_ADDRESS = 3;
const CONFIRM_MAIL_WINDOW_SECONDS = 15 * 60;
/** Role requests (each mails every admin) one account may make within the window before 429. */
const ROLE_REQUESTS_PER_ACCOUNT = 3;
const ROLE_REQUEST_WINDOW_SECONDS = 15 * 60;

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
  ): Promise<{ token: string; user: PublicUser; mustChangePassword: boolean }> {
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
    // Only after the right password: a stranger learns nothing about the address from this answer.
    if (!emailConfirmedOf(user))
      throw new ForbiddenError(API_ERR.emailNotConfirmed, {
        authError: API_ERR.emailNotConfirmed,
        emailNotConfirmed: true,
      });
    // The first password that works ends the other: a used temporary password becomes the password;
    // the old password still working means the reset was not the owner's, so the temporary one is dropped.
    let tokenVersion = user.tokenVersion;
    if (user.tempPasswordHash) {
      // a used temporary password replaces the old one: sessions opened with the old one end with it
      if (usedTemporary) tokenVersion += 1;
      const next: UserRecord = {
        ...user,
        passwordHash: usedTemporary ? user.tempPasswordHash : user.passwordHash,
        tempPasswordHash: undefined,
        tempPasswordExpiresAt: undefined,
        tokenVersion,
        updatedAt: now.toISOString(),
        version: user.version + 1,
      };
      // a change that won meanwhile leaves the stored token version as it was: the token carries that one
      if ((await this.users.update(next, user.version, user.email)) !== 'ok')
        tokenVersion = user.tokenVersion;
      if (usedTemporary)
        await this.recordUserEvent(
          user,
          'PASSWORD_RESET_USED',
          'signs in with a mailed temporary password, which becomes the password',
        );
    }
    const token = await this.tokens.issue({ sub: user.id, tv: tokenVersion }, now);
    return { token, user: toPublicUser(user), mustChangePassword: user.mustChangePassword === true };
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
      throw new BadRequestError(API_ERR.emailDomainNotAllowed(allowed));
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
      emailConfirmed: false,
      roleStatus: 'REQUESTED',
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    if (!(await this.users.create(user))) throw new ConflictError(MSG.registerConflict);
    try {
      const link = await this.emailLink(user, user.email, 'REGISTER');
      await this.mailer.send(this.confirmationMail(user, user.email, link, 'REGISTER'));
    } catch (e) {
      // No mail, no account: the address stays free, so registering again is the retry.
      await this.users.discard(user).catch(() => undefined);
      throw e;
    }
    await this.recordUserEvent(
      user,
      'USER_REGISTERED',
      `registers as ${user.userRole} and asks for that role; the address waits for confirmation`,
    );
    return toPublicUser(user);
  }

  /** Stores the hash of a new single-use token and answers the SPA link that carries the token. */
  private async emailLink(user: UserRecord, email: string, purpose: EmailToken['purpose']): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    await this.users.putEmailToken({
      tokenHash: hashEmailToken(token),
      userId: user.id,
      email,
      purpose,
      createdAt: now.toISOString(),
      validUntil: new Date(now.getTime() + EMAIL_LINK_HOURS * 3600_000).toISOString(),
    });
    return `${this.config.appUrl}/user/confirm-email?token=${token}`;
  }

  private confirmationMail(user: UserRecord, to: string, link: string, purpose: EmailToken['purpose']) {
    return {
      to,
      subject: 'Firmware Release Portal: confirm your email address',
      text: [
        `Hello ${user.name},`,
        '',
        purpose === 'REGISTER'
          ? 'Someone registered a Firmware Release Portal account with this address. Confirm it to sign in:'
          : `Someone asked to change the sign-in address of the Firmware Release Portal account of ${user.name} to this one. Confirm it:`,
        link,
        '',
        `The link works once, for ${EMAIL_LINK_HOURS} hours. If you did not ask for this, ignore this mail.`,
      ].join('\n'),
    };
  }

  /** Confirms the address of a mailed link (single use, 24 h); a registration then reaches the admins. */
  async confirmEmail(token: string): Promise<{ message: string; email: string }> {
    const hash = hashEmailToken(token);
    const t = await this.users.getEmailToken(hash);
    const invalid = () => new BadRequestError(API_ERR.confirmLinkInvalid, { reason: 'INVALID' });
    if (!t) throw invalid();
    if (t.usedAt) throw new AppError(409, API_ERR.confirmLinkUsed, { reason: 'USED' });
    const now = this.clock.now();
    if (Date.parse(t.validUntil) <= now.getTime())
      throw new AppError(410, API_ERR.confirmLinkExpired, { reason: 'EXPIRED' });
    const user = await this.users.getById(t.userId);
    if (!user) throw invalid();
    const change = t.purpose === 'CHANGE_EMAIL';
    if (change && user.pendingEmail !== t.email)
      throw new AppError(409, API_ERR.confirmLinkReplaced, { reason: 'REPLACED' });
    if (!change && user.email !== t.email) throw invalid();
    const wasConfirmed = emailConfirmedOf(user);
    if (change || !wasConfirmed) {
      const next: UserRecord = {
        ...user,
        email: t.email,
        pendingEmail: undefined,
        emailConfirmed: true,
        updatedAt: now.toISOString(),
        version: user.version + 1,
      };
      // conditional on the version read above: of two uses of one link racing, one wins, one gets 409
      const result = await this.users.update(next, user.version, user.email);
      if (result === 'emailTaken') throw new ConflictError(MSG.registerConflict);
      if (result === 'conflict') throw new AppError(409, API_ERR.confirmLinkUsed, { reason: 'USED' });
    }
    await this.users.markEmailTokenUsed(hash, now.toISOString());
    if (change) {
      await this.recordUserEvent(user, 'EMAIL_CHANGED', `confirms ${t.email} as the new sign-in address`, {
        before: user.email,
        after: t.email,
      });
      return { message: API_ERR.emailChangeConfirmed, email: t.email };
    }
    if (!wasConfirmed) {
      await this.recordUserEvent(user, 'EMAIL_CONFIRMED', `confirms the address ${user.email}`);
      if (roleStatusOf(user) === 'REQUESTED') await this.tellAdminsOfRequest(user);
    }
    return { message: API_ERR.emailConfirmed, email: user.email };
  }

  /** A new link for an unconfirmed account; the same answer whether or not the address has one. */
  async resendConfirmation(emailRaw: string): Promise<void> {
    const email = emailRaw.trim().toLowerCase();
    // counted for every address asked, known or not, so the limit tells nothing either
    await this.countConfirmationMail(email);
    const user = await this.users.getByEmail(email);
    if (!user || emailConfirmedOf(user)) return;
    try {
      const link = await this.emailLink(user, user.email, 'REGISTER');
      await this.mailer.send(this.confirmationMail(user, user.email, link, 'REGISTER'));
    } catch (e) {
      // a failure only for existing addresses would tell which ones exist: logged, answered alike
      logger().warn('mail not sent', {
        kind: 'mail',
        what: 'confirmation link',
        reason: (e as Error).message,
      });
    }
  }

  /** Counts one confirmation link for `email` (resent, or an email change), or 429 beyond the limit. */
  private async countConfirmationMail(email: string): Promise<void> {
    const key = `confirm-mail#${email.toLowerCase()}`;
    const now = this.clock.now();
    const sent = await this.users.getThrottle(key);
    if (sent.failures >= CONFIRM_MAILS_PER_ADDRESS && sent.lastFailureAt) {
      const wait = Math.ceil(
        (Date.parse(sent.lastFailureAt) + CONFIRM_MAIL_WINDOW_SECONDS * 1000 - now.getTime()) / 1000,
      );
      if (wait > 0)
        throw new TooManyRequestsError(API_ERR.tooManyConfirmationMails(Math.ceil(wait / 60)), wait);
    }
    await this.users.recordFailure(
      key,
      now.toISOString(),
      Math.floor(now.getTime() / 1000) + CONFIRM_MAIL_WINDOW_SECONDS,
    );
  }

  /** Mails every admin that a role waits for their decision; the request itself is already saved. */
  private async tellAdminsOfRequest(user: UserRecord): Promise<void> {
    const admins = (await this.users.listByRole('ADMIN')).filter(
      (a) => holdsAuthority(a) && a.id !== user.id,
    );
    for (const a of admins)
      await this.mailAfterCommit({
        to: a.email,
        subject: `Role request: ${user.name} asks for ${roleLabel(user.userRole)}`,
        text: [
          `Hello ${a.name},`,
          '',
          `${user.name} (${user.email}) asks for the role ${roleLabel(user.userRole)} in the Firmware Release Portal.`,
          'Until an administrator grants it, the account can sign in and read but holds no release authority.',
          '',
          `Grant or refuse it here: ${this.config.appUrl}/admin/users`,
        ].join('\n'),
      });
  }

  private async mailAfterCommit(mail: { to: string; subject: string; text: string }): Promise<void> {
    try {
      await this.mailer.send(mail);
    } catch (e) {
      logger().warn('mail not sent', {
        kind: 'mail',
        to: mail.to,
        subject: mail.subject,
        reason: (e as Error).message,
      });
    }
  }

  /** Grants or refuses the requested roles of the given users, in one transaction; audited and mailed. */
  async decideRoles(admin: UserRecord, req: DecideRolesRequest): Promise<PublicUser[]> {
    const unique = [...new Set(req.ids)];
    if (unique.includes(admin.id)) throw new ForbiddenError(API_ERR.ownRoleUndecidable);
    const found = await Promise.all(unique.map((id) => this.users.getById(id)));
    const missing = unique.filter((_, i) => !found[i]);
    if (missing.length > 0) throw new NotFoundError(`No user with id ${missing.join(', ')}`);
    const users = found as UserRecord[];
    if (users.some((u) => u.userRole === 'ADMIN')) throw new BadRequestError(API_ERR.adminRoleNotDecided);
    // a user who asked for another role since the admin's list was read: that request was not seen
    const seen = req.roles;
    const moved = seen ? users.filter((u) => seen[u.id] !== undefined && seen[u.id] !== u.userRole) : [];
    if (moved.length > 0)
      throw new ConflictError(
        `${moved
          .map((u) => `${u.email} now asks for ${roleLabel(u.userRole)}, not ${roleLabel(seen![u.id]!)}`)
          .join('; ')}: reload the list and decide again`,
      );
    const grant = req.decision === 'GRANT';
    const target = grant ? 'GRANTED' : 'REFUSED';
    const already = users.filter((u) => roleStatusOf(u) === target);
    if (already.length > 0)
      throw new ConflictError(
        `${already.map((u) => u.email).join(', ')}: the role is already ${grant ? 'granted' : 'refused'}`,
      );
    const now = this.clock.now().toISOString();
    const changes = users.map((u) => ({
      next: { ...u, roleStatus: target, updatedAt: now, version: u.version + 1 } as UserRecord,
      expectedVersion: u.version,
    }));
    if (!(await this.users.updateAll(changes)))
      throw new ConflictError('A selected account was changed meanwhile; reload and try again');
    for (const u of users) {
      const label = roleLabel(u.userRole);
      await this.audit.append({
        subject: `USER#${u.id}`,
        action: grant ? 'ROLE_GRANTED' : 'ROLE_REFUSED',
        meaning: grant
          ? `grants the role ${label} to ${u.email}`
          : `refuses the role ${label} to ${u.email}; the account holds no role authority`,
        actorId: admin.id,
        actorName: admin.name,
        actorRole: admin.userRole,
        details: { userId: u.id, email: u.email, role: u.userRole, before: roleStatusOf(u), after: target },
      });
      await this.mailAfterCommit({
        to: u.email,
        subject: `Firmware Release Portal: your role ${label} was ${grant ? 'granted' : 'refused'}`,
        text: [
          `Hello ${u.name},`,
          '',
          grant
            ? `An administrator granted your role ${label}. You can now act in that role.`
            : `An administrator refused your role ${label}. Your account can sign in and read, but holds no release authority. Choose another role in Settings, or talk to an administrator.`,
          '',
          `Sign in: ${this.config.appUrl}/login`,
        ].join('\n'),
      });
    }
    return changes.map((c) => toPublicUser(c.next));
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
      emailConfirmed: true,
      roleStatus: 'GRANTED',
      createdAt: now,
      updatedAt: now,
      version: 1,
    });
  }

  /** Local stack only: seeded accounts of a data folder older than issue 12 become confirmed and granted. */
  async confirmSeeded(emails: readonly string[]): Promise<void> {
    for (const email of emails) {
      const u = await this.users.getByEmail(email);
      if (!u || (u.roleStatus !== undefined && u.emailConfirmed !== undefined)) continue;
      await this.users.update(
        {
          ...u,
          roleStatus: u.roleStatus ?? 'GRANTED',
          emailConfirmed: u.emailConfirmed ?? true,
          version: u.version + 1,
        },
        u.version,
        u.email,
      );
    }
  }

  /**
   * `npm run admin:create`: creates the admin, or promotes an existing account, confirmed and granted,
   * with a one-time password that must be replaced at first sign-in. Never exposed over HTTP.
   */
  async createAdmin(name: string, emailRaw: string, password: string): Promise<'created' | 'promoted'> {
    const email = emailRaw.trim().toLowerCase();
    const now = this.clock.now().toISOString();
    const passwordHash = await hashPassword(password);
    const existing = await this.users.getByEmail(email);
    const system = { actorId: 'admin:create', actorName: 'npm run admin:create', actorRole: 'SYSTEM' };
    if (existing) {
      const next: UserRecord = {
        ...existing,
        name,
        userRole: 'ADMIN',
        roleStatus: 'GRANTED',
        emailConfirmed: true,
        pendingEmail: undefined,
        passwordHash,
        tempPasswordHash: undefined,
        tempPasswordExpiresAt: undefined,
        mustChangePassword: true,
        tokenVersion: existing.tokenVersion + 1,
        updatedAt: now,
        version: existing.version + 1,
      };
      await this.mustUpdate(next, existing);
      await this.audit.append({
        subject: `USER#${existing.id}`,
        action: 'ADMIN_PROMOTED',
        meaning: `makes ${email} an administrator (was ${existing.userRole}); a one-time password was set`,
        ...system,
      });
      return 'promoted';
    }
    const user: UserRecord = {
      id: randomUUID(),
      name,
      email,
      userRole: 'ADMIN',
      passwordHash,
      tokenVersion: 1,
      emailConfirmed: true,
      roleStatus: 'GRANTED',
      mustChangePassword: true,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    if (!(await this.users.create(user)))
      throw new ConflictError(`${email} belonged to a deleted account and cannot be used again`);
    await this.audit.append({
      subject: `USER#${user.id}`,
      action: 'ADMIN_CREATED',
      meaning: `creates the administrator ${email} with a one-time password`,
      ...system,
    });
    return 'created';
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
      mustChangePassword: undefined,
      tokenVersion: user.tokenVersion + 1,
      updatedAt: now.toISOString(),
      version: user.version + 1,
    };
    await this.mustUpdate(next, user);
    await this.recordUserEvent(user, 'PASSWORD_CHANGED', 'changes their password; earlier sessions end');
    // Every earlier token is revoked; the caller gets a fresh one so this session carries on.
    return { token: await this.tokens.issue({ sub: user.id, tv: next.tokenVersion }, now) };
  }

  /**
   * Name now; a new email only once its mailed link is confirmed (the old one stays the login); a new role
   * ends the current grant at once and becomes a request for an admin (issue 12). Admins keep their role.
   */
  async updateAccount(user: UserRecord, req: AccountRequest): Promise<PublicUser> {
    const isAdmin = user.userRole === 'ADMIN';
    if (isAdmin && req.userRole !== 'ADMIN') throw new ForbiddenError(API_ERR.ownRoleUnchangeable);
    if (!isAdmin && req.userRole === 'ADMIN') throw new BadRequestError(API_ERR.adminRoleNotAllowed);
    const emailChange = req.email !== user.email;
    const roleChange = req.userRole !== user.userRole;
    if (req.name === user.name && !emailChange && !roleChange) return toPublicUser(user);
    if (emailChange) {
      this.assertAllowedDomain(req.email);
      const holder = await this.users.getByEmail(req.email);
      if (holder && holder.id !== user.id) throw new ConflictError(MSG.registerConflict);
    }
    // A role change ends the current grant at once: a package waiting for this person's decision would
    // wait for someone who can no longer decide (as with deletion, decision 078).
    if (roleChange) await this.refuseRoleChangeOfPendingDecider(user);
    // Each role request mails every admin: a few per account per window, or flipping roles floods them.
    const requestKey = `role-request#${user.id}`;
    if (roleChange) {
      const quota = await this.users.takeQuota(
        requestKey,
        ROLE_REQUESTS_PER_ACCOUNT,
        ROLE_REQUEST_WINDOW_SECONDS,
        this.clock.now(),
      );
      if (!quota.ok)
        throw new TooManyRequestsError(
          API_ERR.tooManyRoleRequests(
            ROLE_REQUESTS_PER_ACCOUNT,
            ROLE_REQUEST_WINDOW_SECONDS / 60,
            minutesToWait(quota.retryAfterSeconds),
          ),
          quota.retryAfterSeconds,
        );
    }
    if (emailChange) {
      // the same limit per address as a resent link: settings must not become a way to mail anyone at will
      try {
        await this.countConfirmationMail(req.email);
      } catch (e) {
        if (roleChange) await this.users.returnQuota(requestKey).catch(() => undefined);
        throw e;
      }
      // mail first: if it cannot go out, nothing about the account has changed (an unused token stays behind)
      const link = await this.emailLink(user, req.email, 'CHANGE_EMAIL');
      await this.mailer.send(this.confirmationMail(user, req.email, link, 'CHANGE_EMAIL'));
    }
    const next: UserRecord = {
      ...user,
      name: req.name,
      pendingEmail: emailChange ? req.email : user.pendingEmail,
      userRole: req.userRole,
      roleStatus: roleChange ? 'REQUESTED' : user.roleStatus,
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
    if (emailChange)
      await this.recordUserEvent(
        user,
        'EMAIL_CHANGE_REQUESTED',
        `asks to sign in with ${req.email}; a confirmation link was mailed there`,
      );
    if (roleChange) {
      await this.recordUserEvent(
        user,
        'ROLE_REQUESTED',
        `gives up the role ${user.userRole} (its grant ends now) and asks for ${req.userRole}`,
        { before: user.userRole, beforeStatus: roleStatusOf(user), requested: req.userRole },
      );
      await this.tellAdminsOfRequest(next);
    }
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
    return (await this.users.list()).map((u) => ({
      ...toPublicUser(u),
      emailConfirmed: emailConfirmedOf(u),
    }));
  }

  async deleteUsers(admin: UserRecord, ids: string[]): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.includes(admin.id)) throw new ForbiddenError('You cannot delete your own account');
    const found = await Promise.all(unique.map((id) => this.users.getById(id)));
    const missing = unique.filter((_, i) => !found[i]);
    if (missing.length > 0) throw new NotFoundError(`No user with id ${missing.join(', ')}`);
    await this.refuseDeletingPendingDeciders(found.filter((u): u is UserRecord => u !== null));
    if (found.some((u) => u?.userRole === 'ADMIN')) {
      const remaining = (await this.users.listByRole('ADMIN')).filter(
        (a) => !unique.includes(a.id) && holdsAuthority(a),
      );
      if (remaining.length === 0) throw new ConflictError(API_ERR.lastAdmin);
    }
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

  private async refuseRoleChangeOfPendingDecider(user: UserRecord): Promise<void> {
    if (!this.pendingDecisions) throw new Error('a role change needs the pending-decisions port');
    const names = await this.pendingDecisions.packagesWaitingFor(user.id);
    if (names.length > 0)
      throw new ConflictError(
        `You cannot change your role while ${names.map((n) => `'${n}'`).join(', ')} wait${names.length === 1 ? 's' : ''} for your decision as approver or signer. Decide first, or ask an administrator.`,
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
