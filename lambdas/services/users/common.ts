import { createHash, randomUUID } from 'node:crypto';
import type { PublicUser } from '../../../shared/api/contracts/user';
import { withTokenEnding } from '../../../shared/domain/access-token-endings';
import { ConflictError, NotFoundError, TooManyRequestsError } from '../../../shared/domain/errors';
import { roleStatusOf } from '../../../shared/domain/identity';
import type { ThrottlePolicy } from '../../../shared/domain/login-throttle';
import type { Role } from '../../../shared/domain/roles';
import { logger } from '../../observability/logger';
import type { AuditEvent } from '../../ports/audit-log';
import type { Clock } from '../../ports/clock';
import type { Mail, Mailer } from '../../ports/mailer';
import type { PendingDecisions } from '../../ports/pending-decisions';
import type { QuotaResult, UserCommit, UserRecord, UserRepository } from '../../ports/user-repository';
import type { TokenService } from '../token-service';
import type { PasskeyPorts } from './passkey-ceremony';

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
  /** registrations per source per window, taken before any hashing (default 10 per 15 minutes) */
  registerLimits?: { perSource: number; windowSeconds: number };
  appUrl: string;
  /** when non-empty, only emails of these domains may register or be taken by an account (lower case) */
  allowedEmailDomains: readonly string[];
  /** the stage's company identity provider, when it names one (decision 315) */
  companySignOn?: CompanySignOnPolicy;
}

/** What sign-in needs to know of company sign-on: its name and whether it is the only way in. */
export interface CompanySignOnPolicy {
  /** the company's display name ("Sign in with <name>") */
  name: string;
  /** company sign-on is the only way in, but for the break-glass administrators' passwords */
  only: boolean;
  /** the addresses (lower case) that may still sign in with a password when `only` is set */
  breakGlassAdmins: readonly string[];
}

/** What every user use case works with: the ports and the configuration given to UserService. */
export interface UserDeps {
  users: UserRepository;
  tokens: TokenService;
  mailer: Mailer;
  clock: Clock;
  config: UserServiceConfig;
  /** packages waiting for a user's decision; deleting such a user is refused (decision 078) */
  pendingDecisions?: PendingDecisions;
  /** the passkey store and the relying party (decision 322); absent in functions that never see one */
  passkeys?: PasskeyPorts;
  /**
   * takes a company reauthentication ticket of the user (single use) as the proof of a signature or of an
   * account change; absent on a stage without company sign-on (decisions 315, 366, 368)
   */
  companyReauth?: (user: UserRecord, ticket: string) => Promise<void>;
}

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
    ...(u.companyIdentity
      ? {
          companyIdentity: {
            email: u.companyIdentity.email,
            subject: u.companyIdentity.subject,
            linkedAt: u.companyIdentity.linkedAt,
            linkedBy: u.companyIdentity.linkedBy,
          },
        }
      : {}),
    ...(u.passwordHash === '' ? { passwordless: true as const } : {}),
  };
}

/** SHA-256 of a mailed token: only this is stored, so a read of the table cannot confirm anything. */
export const hashEmailToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A new user record (version 1, token version 1) at `now`, with the fields that differ per use case. */
export function newUserRecord(
  fields: Pick<UserRecord, 'name' | 'email' | 'userRole' | 'passwordHash' | 'emailConfirmed' | 'roleStatus'> &
    Pick<UserRecord, 'mustChangePassword'>,
  now: string,
): UserRecord {
  return { id: randomUUID(), ...fields, tokenVersion: 1, createdAt: now, updatedAt: now, version: 1 };
}

/** The event of a change of the user's own account, by the user: committed with the change (decision 283). */
export function userEvent(
  user: Pick<UserRecord, 'id' | 'name' | 'userRole'>,
  action: string,
  meaning: string,
  details?: Record<string, unknown>,
): AuditEvent {
  return adminEvent(user, user, action, meaning, details);
}

/** The event of a change of `user`'s account by `actor` (an administrator, or the user themself). */
export function adminEvent(
  actor: Pick<UserRecord, 'id' | 'name' | 'userRole'>,
  user: Pick<UserRecord, 'id'>,
  action: string,
  meaning: string,
  details?: Record<string, unknown>,
): AuditEvent {
  return {
    subject: `USER#${user.id}`,
    action,
    meaning,
    actorId: actor.id,
    actorName: actor.name,
    actorRole: actor.userRole,
    details,
  };
}

/** Runs `step`; when it fails, `undo` runs (its own failure ignored) and the step's error is thrown. */
export async function undoOnFailure<T>(step: () => Promise<T>, undo: () => Promise<unknown>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    await undo().catch(() => undefined);
    throw e;
  }
}

/**
 * Stores `next` over `prev` with what commits with it (its events); a lost race is a 409. A change of role,
 * role status or password moves the account's token epoch in the same write (decision 334). Answers the
 * record as stored.
 */
export async function mustUpdate(
  d: UserDeps,
  next: UserRecord,
  prev: UserRecord,
  commit: UserCommit = {},
): Promise<UserRecord> {
  const stored = withTokenEnding(prev, next, d.clock.now().toISOString());
  const result = await d.users.update(stored, prev.version, prev.email, commit);
  if (result !== 'ok') throw new ConflictError('Your account was changed meanwhile; reload and try again');
  return stored;
}

/** A mail whose failure must not undo what was already committed: logged only. */
export async function mailAfterCommit(d: UserDeps, mail: Mail): Promise<void> {
  try {
    await d.mailer.send(mail);
  } catch (e) {
    warnMailFailed({ to: mail.to, subject: mail.subject }, e);
  }
}

/** The one log line of a mail that did not go out (the caller answers as if it had). */
export function warnMailFailed(what: Record<string, string>, e: unknown): void {
  logger().warn('mail not sent', { kind: 'mail', ...what, reason: (e as Error).message });
}

/** The users of `ids` (duplicates once), or 404 naming the ones that do not exist. */
export async function getAllOrNotFound(d: UserDeps, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  const found = await Promise.all(unique.map((id) => d.users.getById(id)));
  const missing = unique.filter((_, i) => !found[i]);
  if (missing.length > 0) throw new NotFoundError(`No user with id ${missing.join(', ')}`);
  return { unique, users: found as UserRecord[] };
}

/** Takes one use of a quota, or 429 with the message for its wait (in seconds). */
export async function takeQuotaOrRefuse(
  d: UserDeps,
  key: string,
  limit: number,
  windowSeconds: number,
  refusal: (retryAfterSeconds: number) => string,
): Promise<void> {
  const quota: QuotaResult = await d.users.takeQuota(key, limit, windowSeconds, d.clock.now());
  if (!quota.ok) throw new TooManyRequestsError(refusal(quota.retryAfterSeconds), quota.retryAfterSeconds);
}

/** Seconds until a window of `windowSeconds` after the last counted event has passed (<= 0: it has). */
export const secondsLeftInWindow = (lastAt: string, windowSeconds: number, now: Date) =>
  Math.ceil((Date.parse(lastAt) + windowSeconds * 1000 - now.getTime()) / 1000);
