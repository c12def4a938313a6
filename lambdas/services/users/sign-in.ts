import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { PublicUser } from '../../../shared/api/contracts/user';
import { withTokenEnding } from '../../../shared/domain/access-token-endings';
import { COMPANY_ERR } from '../../../shared/domain/company-sign-on';
import { ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../../../shared/domain/errors';
import { emailConfirmedOf, registrationExpired } from '../../../shared/domain/identity';
import {
  DEFAULT_ACCOUNT_POLICY,
  DEFAULT_ACCOUNT_WIDE_POLICY,
  lockRemainingSeconds,
} from '../../../shared/domain/login-throttle';
import { SIGN_IN_TICKET_SECONDS } from '../../../shared/domain/passkeys';
import { API_ERR } from '../../../shared/messages';
import type { AuditEvent } from '../../ports/audit-log';
import type { UserRecord } from '../../ports/user-repository';
import { dummyHash, verifyPassword } from '../password-hasher';
import {
  mustUpdate,
  secondsLeftInWindow,
  toPublicUser,
  type UserDeps,
  type UserServiceConfig,
  userEvent,
} from './common';
import { startAssertion } from './passkey-ceremony';

/**
 * What the sign-in throttle works with: the user table (its throttle items), the clock and the limits. A
 * signature's password check (signature-check.ts) uses the throttle with just these, without the identity
 * service (decision 141).
 */
export type ThrottleDeps = Pick<UserDeps, 'users' | 'clock'> & {
  config: Pick<
    UserServiceConfig,
    'maxFailuresPerSource' | 'sourceWindowSeconds' | 'accountPolicy' | 'accountWidePolicy'
  >;
};

/** Sign-in, sessions (bearer tokens, logout) and the sign-in throttle. */

const DEFAULT_SOURCE_WINDOW_SECONDS = 15 * 60;
/** An account's failures are remembered this long after the last one: beyond the longest lockout. */
const ACCOUNT_MEMORY_SECONDS = 60 * 60;

/** Throttle keys: one (account, source) pair; one account (its distinct failing sources); one source. */
const pairKey = (email: string, source: string) => `login#${email.toLowerCase()}#${source}`;
const accountKey = (email: string) => `account#${email.toLowerCase()}`;
const sourceKey = (source: string) => `source#${source}`;

/** How the person proved who they are before the session (decision 315). */
export type SignInMethod = 'password' | 'company';

/** A first factor that was verified: the user, how, and what the session carries. */
export interface VerifiedFirstFactor {
  /** the stored record after the first factor's own writes */
  user: UserRecord;
  method: SignInMethod;
  /** the token version the session token carries */
  tokenVersion: number;
  mustChangePassword: boolean;
  sourceIp: string;
  /**
   * the one audit event of the use case (default SIGNED_IN): a sign-in that also created or linked an
   * account, or used a mailed temporary password, says so here instead of writing a second event
   */
  audit?: { action?: string; meaning?: string; details?: Record<string, unknown> };
  /**
   * the use case's own write already committed `signInEvent` of this factor with its change (a linked or
   * created account, decision 283): the session adds no second event
   */
  recorded?: boolean;
}

/** The portal's own session: the same token and answer whatever the first factor was. */
export type SessionResult = { token: string; user: PublicUser; mustChangePassword: boolean };
/** The first factor passed; a passkey assertion must follow before `expiresAt`, once (decision 322). */
export type SecondFactorPending = {
  secondFactor: {
    kind: 'passkey';
    ticket: string;
    expiresAt: string;
    publicKey: PublicKeyCredentialRequestOptionsJSON;
  };
};
export type SignInResult = SessionResult | SecondFactorPending;

/** The passkey that completed a sign-in as its second factor. */
export type SecondFactorUsed = { kind: 'passkey'; passkeyId: string; passkeyName: string };

/**
 * The one end of every sign-in (password, company sign-on): after a verified first factor, the session
 * token, or, for an account that holds a passkey, the "second factor pending" answer whose ticket the
 * passkey step (second-factor.ts) turns into the same session.
 */
export async function completeSignIn(d: UserDeps, f: VerifiedFirstFactor): Promise<SignInResult> {
  const pending = await beginSecondFactor(d, f);
  return pending ?? issueSession(d, f);
}

/**
 * The passkey step a sign-in owes (decision 322): due whenever the account holds a passkey, whatever the
 * first factor. The ticket is a signIn ceremony bound to the user, the token version and the first factor.
 */
async function beginSecondFactor(d: UserDeps, f: VerifiedFirstFactor): Promise<SecondFactorPending | null> {
  if (!f.user.passkeyIds?.length) return null;
  const c = await startAssertion(d, f.user, 'signIn', SIGN_IN_TICKET_SECONDS, {
    tokenVersion: f.tokenVersion,
    method: f.method,
    mustChangePassword: f.mustChangePassword,
  });
  return {
    secondFactor: { kind: 'passkey', ticket: c.ceremonyId, expiresAt: c.expiresAt, publicKey: c.publicKey },
  };
}

const SIGN_IN_MEANING: Record<SignInMethod, string> = {
  password: 'signs in with their password',
  company: 'signs in with the company identity provider',
};

/** The sign-in's one audit event: the method, what the use case adds, and the passkey when there was one. */
export function signInEvent(
  f: Pick<VerifiedFirstFactor, 'user' | 'method' | 'audit'>,
  secondFactor?: SecondFactorUsed,
): AuditEvent {
  const meaning = secondFactor
    ? `${SIGN_IN_MEANING[f.method]} and the passkey "${secondFactor.passkeyName}"`
    : (f.audit?.meaning ?? SIGN_IN_MEANING[f.method]);
  return userEvent(f.user, secondFactor ? 'SIGNED_IN' : (f.audit?.action ?? 'SIGNED_IN'), meaning, {
    method: f.method,
    ...f.audit?.details,
    ...(secondFactor ? { secondFactor: secondFactor.kind, passkeyId: secondFactor.passkeyId } : {}),
  });
}

/**
 * Records the sign-in (unless the use case's own write did, decision 283; a passkey step is always
 * recorded) and issues the session token.
 */
export async function issueSession(
  d: UserDeps,
  f: VerifiedFirstFactor,
  secondFactor?: SecondFactorUsed,
): Promise<SessionResult> {
  if (!f.recorded || secondFactor) await d.users.record([signInEvent(f, secondFactor)]);
  const token = await d.tokens.issue({ sub: f.user.id, tv: f.tokenVersion }, d.clock.now());
  return { token, user: toPublicUser(f.user), mustChangePassword: f.mustChangePassword };
}

/**
 * With company sign-on as the only way in (stage setting), a password signs in only the break-glass
 * administrators; everyone else is told to use the company button. Checked before any password, with the
 * same answer for every other address, known or not.
 */
function refusePasswordWhenCompanyOnly(d: UserDeps, email: string): void {
  const c = d.config.companySignOn;
  if (c?.only && !c.breakGlassAdmins.includes(email))
    throw new ForbiddenError(COMPANY_ERR.companyOnly(c.name));
}

export async function login(
  d: UserDeps,
  login: string,
  password: string,
  sourceIp: string,
): Promise<SignInResult> {
  const email = login.trim().toLowerCase();
  const now = d.clock.now();
  refusePasswordWhenCompanyOnly(d, email);
  await refuseWhileThrottled(d, email, sourceIp, now);

  const found = await d.users.getByEmail(email);
  // an unconfirmed registration whose 24 hours passed is absent
  const user = found && !registrationExpired(found, now) ? found : null;
  let ok = false;
  let usedTemporary = false;
  // an account made by a company sign-in has no password ('') and answers as an unknown one, hash and all
  if (!user || user.passwordHash === '') {
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
    await recordSignInFailure(d, email, sourceIp);
    throw new UnauthorizedError(API_ERR.wrongPassword, { authError: API_ERR.wrongPassword });
  }

  // forgiven, not forgotten: this source stays counted once among the account's failing sources
  await forgiveSource(d, email, sourceIp);
  // Only after the right password: a stranger learns nothing about the address from this answer.
  if (!emailConfirmedOf(user))
    throw new ForbiddenError(API_ERR.emailNotConfirmed, {
      authError: API_ERR.emailNotConfirmed,
      emailNotConfirmed: true,
    });
  // The first password that works ends the other: a used temporary password becomes the password, which
  // must be changed before anything else (it never signs a decision); the old password still
  // working means the reset was not the owner's, so the temporary one is dropped.
  let tokenVersion = user.tokenVersion;
  let mustChangePassword = user.mustChangePassword === true;
  let recorded = false;
  let stored = user;
  if (user.tempPasswordHash) {
    // a used temporary password replaces the old one: sessions opened with the old one end with it
    if (usedTemporary) tokenVersion += 1;
    // a used temporary password is the reset taking effect: it ends the access tokens (decision 334)
    const next: UserRecord = withTokenEnding(
      user,
      {
        ...user,
        passwordHash: usedTemporary ? user.tempPasswordHash : user.passwordHash,
        tempPasswordHash: undefined,
        tempPasswordExpiresAt: undefined,
        ...(usedTemporary ? { mustChangePassword: true } : {}),
        tokenVersion,
        updatedAt: now.toISOString(),
        version: user.version + 1,
      },
      now.toISOString(),
    );
    // the use of a mailed password commits with the sign-in's event, which says so (decision 283); a
    // change that won meanwhile leaves the stored record as it was and records nothing: the token carries
    // its version, and the sign-in is recorded as a plain one
    const events = usedTemporary ? [signInEvent({ user, method: 'password', audit: TEMPORARY_USED })] : [];
    if ((await d.users.update(next, user.version, user.email, { events })) !== 'ok')
      tokenVersion = user.tokenVersion;
    else {
      stored = next;
      if (usedTemporary) {
        mustChangePassword = true;
        recorded = true;
      }
    }
  }
  return completeSignIn(d, {
    user: stored,
    method: 'password',
    tokenVersion,
    mustChangePassword,
    sourceIp,
    ...(recorded ? { audit: TEMPORARY_USED, recorded } : {}),
  });
}

/** The one event of a sign-in with a mailed temporary password. */
const TEMPORARY_USED = {
  action: 'PASSWORD_RESET_USED',
  meaning: 'signs in with a mailed temporary password, which must be changed before anything else',
};

/**
 * Refuses (429 with Retry-After) a password check while one of the three limits holds: the (account,
 * source) pair is locked, the account is slowed because many sources failed on it, or the source failed
 * too often over any accounts. The same answer for unknown and known accounts. Answers the pair's
 * remembered failures (0: nothing to forgive after the right password).
 */
export async function refuseWhileThrottled(
  d: ThrottleDeps,
  email: string,
  source: string,
  now: Date,
): Promise<number> {
  const [pair, account, src] = await Promise.all([
    d.users.getThrottle(pairKey(email, source)),
    d.users.getThrottle(accountKey(email)),
    d.users.getThrottle(sourceKey(source)),
  ]);
  const at = (iso: string | null) => (iso ? new Date(iso) : null);
  const wait = Math.max(
    lockRemainingSeconds(
      pair.failures,
      at(pair.lastFailureAt),
      now,
      d.config.accountPolicy ?? DEFAULT_ACCOUNT_POLICY,
    ),
    lockRemainingSeconds(
      account.failures,
      at(account.lastFailureAt),
      now,
      d.config.accountWidePolicy ?? DEFAULT_ACCOUNT_WIDE_POLICY,
    ),
  );
  if (wait > 0) throw new TooManyRequestsError(API_ERR.tooManyAttempts(wait), wait);
  const sourceWindow = d.config.sourceWindowSeconds ?? DEFAULT_SOURCE_WINDOW_SECONDS;
  if (src.failures >= d.config.maxFailuresPerSource && src.lastFailureAt) {
    // refused until the window after the last counted failure has passed: Retry-After says exactly that
    const sourceWait = secondsLeftInWindow(src.lastFailureAt, sourceWindow, now);
    if (sourceWait > 0) throw new TooManyRequestsError(API_ERR.tooManyAttempts(sourceWait), sourceWait);
  }
  return pair.failures;
}

/** Counts a wrong password: on the pair, on the source, and on the account when this source is new to it. */
export async function recordSignInFailure(d: ThrottleDeps, email: string, source: string): Promise<void> {
  // lockouts run from the failure, not from the request's start: the hash check takes a while
  const failedAt = d.clock.now();
  const iso = failedAt.toISOString();
  const epoch = Math.floor(failedAt.getTime() / 1000);
  const sourceWindow = d.config.sourceWindowSeconds ?? DEFAULT_SOURCE_WINDOW_SECONDS;
  const [pair] = await Promise.all([
    d.users.recordFailure(pairKey(email, source), iso, epoch + ACCOUNT_MEMORY_SECONDS),
    d.users.recordFailure(sourceKey(source), iso, epoch + sourceWindow),
  ]);
  if (pair.firstInWindow) await d.users.recordFailure(accountKey(email), iso, epoch + ACCOUNT_MEMORY_SECONDS);
}

/**
 * The source limit alone, for sign-ins without a password (company sign-on): refused (429) while this
 * source failed too often, over passwords and company sign-ins alike.
 */
export async function refuseSourceWhileThrottled(d: ThrottleDeps, source: string, now: Date): Promise<void> {
  const src = await d.users.getThrottle(sourceKey(source));
  if (src.failures < d.config.maxFailuresPerSource || !src.lastFailureAt) return;
  const wait = secondsLeftInWindow(
    src.lastFailureAt,
    d.config.sourceWindowSeconds ?? DEFAULT_SOURCE_WINDOW_SECONDS,
    now,
  );
  if (wait > 0) throw new TooManyRequestsError(API_ERR.tooManyAttempts(wait), wait);
}

/** Counts a refused company sign-in against its source, as a wrong password is counted. */
export async function recordSourceFailure(d: ThrottleDeps, source: string): Promise<void> {
  const failedAt = d.clock.now();
  const window = d.config.sourceWindowSeconds ?? DEFAULT_SOURCE_WINDOW_SECONDS;
  await d.users.recordFailure(
    sourceKey(source),
    failedAt.toISOString(),
    Math.floor(failedAt.getTime() / 1000) + window,
  );
}

/** The right password from this source: its lockout ends (it stays counted among the account's sources). */
export function forgiveSource(d: ThrottleDeps, email: string, source: string): Promise<void> {
  return d.users.forgiveFailures(pairKey(email, source));
}

/** The signed-in user for a bearer token, or an UnauthorizedError (invalid, expired, revoked, deleted). */
export async function authenticate(
  d: Pick<UserDeps, 'tokens' | 'users' | 'clock'>,
  token: string | null,
): Promise<UserRecord> {
  if (!token) throw new UnauthorizedError(API_ERR.missingToken);
  const claims = await d.tokens.verify(token, d.clock.now());
  if (!claims) throw new UnauthorizedError(API_ERR.invalidToken);
  const user = await d.users.getById(claims.sub);
  // the token is genuine, so its holder was this user: say that the account is gone
  if (!user) throw new UnauthorizedError(API_ERR.accountDeleted);
  if (user.tokenVersion !== claims.tv) throw new UnauthorizedError(API_ERR.invalidToken);
  return user;
}

/** Ends every session of the user: tokens carrying the old version are refused from now on. */
export async function logout(d: UserDeps, user: UserRecord): Promise<void> {
  const next = {
    ...user,
    tokenVersion: user.tokenVersion + 1,
    updatedAt: d.clock.now().toISOString(),
    version: user.version + 1,
  };
  await mustUpdate(d, next, user);
}
