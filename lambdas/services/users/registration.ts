import { randomBytes } from 'node:crypto';
import type { PublicUser, RegisterRequest } from '../../../shared/api/contracts/user';
import {
  AppError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  TooManyRequestsError,
} from '../../../shared/domain/errors';
import {
  EMAIL_LINK_HOURS,
  emailConfirmedOf,
  REGISTRATION_HOURS,
  registrationExpired,
  roleStatusOf,
} from '../../../shared/domain/identity';
import { DEFAULT_REGISTER_LIMITS, minutesToWait } from '../../../shared/domain/login-throttle';
import { API_ERR, MSG } from '../../../shared/messages';
import type { EmailToken, UserRecord } from '../../ports/user-repository';
import { hashPassword, verifyPassword } from '../password-hasher';
import {
  hashEmailToken,
  newUserRecord,
  secondsLeftInWindow,
  takeQuotaOrRefuse,
  toPublicUser,
  type UserDeps,
  userEvent,
  warnMailFailed,
} from './common';
import { confirmationMail } from './mails';
import { tellAdminsOfRequest } from './role-requests';
import { forgiveSource, recordSignInFailure, refuseWhileThrottled } from './sign-in';

/** Registration and the mailed confirmation links (of a new account and of a new address). */

/** Confirmation mails asked for one address within the window before 429. */
const CONFIRM_MAILS_PER_ADDRESS = 3;
const CONFIRM_MAIL_WINDOW_SECONDS = 15 * 60;

export function assertAllowedDomain(d: UserDeps, email: string): void {
  const allowed = d.config.allowedEmailDomains;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (allowed.length > 0 && !allowed.includes(domain)) {
    throw new BadRequestError(API_ERR.emailDomainNotAllowed(allowed));
  }
}

/**
 * A registration: the address is checked (domain, per-source limit, taken) before the password
 * is hashed, so refused requests cost no hashing. The account waits REGISTRATION_HOURS for its mailbox
 * owner to confirm it with the password chosen here; then it is forgotten and the address is free again.
 */
export async function register(d: UserDeps, req: RegisterRequest, sourceIp: string): Promise<PublicUser> {
  assertAllowedDomain(d, req.email);
  // every request counts for its source, taken or not (it also bounds probing for addresses)
  const limits = d.config.registerLimits ?? DEFAULT_REGISTER_LIMITS;
  await takeQuotaOrRefuse(d, `register-source#${sourceIp}`, limits.perSource, limits.windowSeconds, (wait) =>
    API_ERR.tooManyRegistrations(minutesToWait(wait)),
  );
  const at = d.clock.now();
  // an unconfirmed registration whose 24 hours passed counts as absent (the table's TTL is lazy)
  const existing = await d.users.getByEmail(req.email);
  const expired = existing && registrationExpired(existing, at) ? existing : undefined;
  if (existing && !expired) throw new ConflictError(MSG.registerConflict);
  const now = at.toISOString();
  const user: UserRecord = {
    ...newUserRecord(
      {
        name: req.name,
        email: req.email,
        userRole: req.userRole,
        passwordHash: await hashPassword(req.password),
        emailConfirmed: false,
        roleStatus: 'REQUESTED',
      },
      now,
    ),
    unconfirmedUntil: new Date(at.getTime() + REGISTRATION_HOURS * 3600_000).toISOString(),
  };
  // The mail first: no mail, no account (the address stays free, so registering again is the retry), and
  // no account ever stored without its event. A crash after the mail leaves a link to an account that was
  // never stored: it answers "invalid", and the retry mails a new one (decision 285).
  await mailConfirmationLink(d, user, user.email, 'REGISTER');
  const registered = userEvent(
    user,
    'USER_REGISTERED',
    `registers as ${user.userRole} and asks for that role; the address waits for confirmation`,
  );
  if (!(await d.users.create(user, expired, { events: [registered] })))
    throw new ConflictError(MSG.registerConflict);
  return toPublicUser(user);
}

/** Stores the hash of a new single-use token and mails the SPA link that carries the token to `email`. */
export async function mailConfirmationLink(
  d: UserDeps,
  user: UserRecord,
  email: string,
  purpose: EmailToken['purpose'],
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const now = d.clock.now();
  const linkEnds = now.getTime() + EMAIL_LINK_HOURS * 3600_000;
  // a registration's link ends with the registration itself (a resent link does not extend it)
  const registrationEnds =
    purpose === 'REGISTER' && user.unconfirmedUntil ? Date.parse(user.unconfirmedUntil) : linkEnds;
  await d.users.putEmailToken({
    tokenHash: hashEmailToken(token),
    userId: user.id,
    email,
    purpose,
    createdAt: now.toISOString(),
    validUntil: new Date(Math.min(linkEnds, registrationEnds)).toISOString(),
  });
  const link = `${d.config.appUrl}/user/confirm-email?token=${token}`;
  await d.mailer.send(confirmationMail(user, email, link, purpose));
}

/** The stored link of `token` while it can still be used, or the typed error of why not. */
async function usableLink(d: UserDeps, token: string, now: Date) {
  const hash = hashEmailToken(token);
  const t = await d.users.getEmailToken(hash);
  const invalid = () => new BadRequestError(API_ERR.confirmLinkInvalid, { reason: 'INVALID' });
  if (!t) throw invalid();
  if (t.usedAt) throw new AppError(409, API_ERR.confirmLinkUsed, { reason: 'USED' });
  if (Date.parse(t.validUntil) <= now.getTime())
    throw new AppError(410, API_ERR.confirmLinkExpired, { reason: 'EXPIRED' });
  const user = await d.users.getById(t.userId);
  if (!user) throw invalid();
  const change = t.purpose === 'CHANGE_EMAIL';
  if (change && user.pendingEmail !== t.email)
    throw new AppError(409, API_ERR.confirmLinkReplaced, { reason: 'REPLACED' });
  if (!change && user.email !== t.email) throw invalid();
  if (!change && registrationExpired(user, now))
    throw new AppError(410, API_ERR.confirmLinkExpired, { reason: 'EXPIRED' });
  return { hash, t, user, change };
}

/**
 * Confirms the address of a mailed link (single use, 24 h) with the password chosen at registration (or
 * the account's password, for a new address): only who holds the mailbox and chose the password confirms.
 * A wrong password is 403, changes nothing and counts as a failed sign-in (the same throttle).
 * A registration then reaches the admins.
 */
export async function confirmEmail(
  d: UserDeps,
  token: string,
  password: string,
  sourceIp: string,
): Promise<{ message: string; email: string }> {
  const now = d.clock.now();
  const { hash, t, user, change } = await usableLink(d, token, now);
  const failures = await refuseWhileThrottled(d, user.email, sourceIp, now);
  if (!(await verifyPassword(password, user.passwordHash))) {
    await recordSignInFailure(d, user.email, sourceIp);
    throw new ForbiddenError(API_ERR.confirmPasswordWrong, { reason: 'WRONG_PASSWORD' });
  }
  if (failures > 0) await forgiveSource(d, user.email, sourceIp);
  const wasConfirmed = emailConfirmedOf(user);
  const usedLink = { tokenHash: hash, at: now.toISOString() };
  if (!change && wasConfirmed) {
    // confirmed before (another link): nothing changes, the link is spent
    await d.users.markEmailTokenUsed(hash, now.toISOString());
    return { message: API_ERR.emailConfirmed, email: user.email };
  }
  const next: UserRecord = {
    ...user,
    email: t.email,
    pendingEmail: undefined,
    emailConfirmed: true,
    unconfirmedUntil: undefined,
    updatedAt: now.toISOString(),
    version: user.version + 1,
  };
  // the change, the link marked used and the event: one transaction (decision 283), conditional on the
  // version read above, so of two uses of one link racing (or a retry), one wins and the other gets 409
  const result = change
    ? await d.users.update(next, user.version, user.email, {
        usedLink,
        events: [
          userEvent(user, 'EMAIL_CHANGED', `confirms ${t.email} as the new sign-in address`, {
            before: user.email,
            after: t.email,
          }),
        ],
      })
    : await d.users.confirmRegistration(next, user.version, {
        usedLink,
        events: [
          userEvent(
            user,
            'EMAIL_CONFIRMED',
            `confirms the address ${user.email} with the password chosen at registration`,
          ),
        ],
      });
  if (result === 'emailTaken') throw new ConflictError(MSG.registerConflict);
  if (result === 'conflict') throw new AppError(409, API_ERR.confirmLinkUsed, { reason: 'USED' });
  if (change) return { message: API_ERR.emailChangeConfirmed, email: t.email };
  if (roleStatusOf(user) === 'REQUESTED') await tellAdminsOfRequest(d, user);
  return { message: API_ERR.emailConfirmed, email: user.email };
}

/**
 * "I did not register": the mailbox owner cancels, with the mailed token alone, the registration
 * made with their address (the account and its claim are removed: the address is free again), or an email
 * change that would move someone's account onto it. A confirmed registration cannot be cancelled here.
 */
export async function cancelRegistration(
  d: UserDeps,
  token: string,
): Promise<{ message: string; email: string }> {
  const now = d.clock.now();
  const { hash, t, user, change } = await usableLink(d, token, now);
  const usedLink = { tokenHash: hash, at: now.toISOString() };
  if (change) {
    const cancelled = userEvent(
      user,
      'EMAIL_CHANGE_CANCELLED',
      `the owner of ${t.email} did not ask for it: the change of address is cancelled`,
    );
    const result = await d.users.update(
      { ...user, pendingEmail: undefined, updatedAt: now.toISOString(), version: user.version + 1 },
      user.version,
      user.email,
      { usedLink, events: [cancelled] },
    );
    if (result !== 'ok') throw new AppError(409, API_ERR.confirmLinkUsed, { reason: 'USED' });
    return { message: API_ERR.emailChangeCancelled, email: t.email };
  }
  if (emailConfirmedOf(user)) throw new ConflictError(API_ERR.cancelAfterConfirm);
  const cancelled = userEvent(
    user,
    'REGISTRATION_CANCELLED',
    `the owner of ${t.email} did not register: the registration is removed and the address is free again`,
  );
  // confirmed or cancelled meanwhile: the other use of the link won
  if (!(await d.users.discard(user, { usedLink, events: [cancelled] })))
    throw new AppError(409, API_ERR.confirmLinkUsed, { reason: 'USED' });
  return { message: API_ERR.registrationCancelled, email: t.email };
}

/** A new link for an unconfirmed account; the same answer whether or not the address has one. */
export async function resendConfirmation(d: UserDeps, emailRaw: string): Promise<void> {
  const email = emailRaw.trim().toLowerCase();
  // counted for every address asked, known or not, so the limit tells nothing either
  await countConfirmationMail(d, email);
  const user = await d.users.getByEmail(email);
  if (!user || emailConfirmedOf(user) || registrationExpired(user, d.clock.now())) return;
  try {
    await mailConfirmationLink(d, user, user.email, 'REGISTER');
  } catch (e) {
    // a failure only for existing addresses would tell which ones exist: logged, answered alike
    warnMailFailed({ what: 'confirmation link' }, e);
  }
}

/** Counts one confirmation link for `email` (resent, or an email change), or 429 beyond the limit. */
export async function countConfirmationMail(d: UserDeps, email: string): Promise<void> {
  const key = `confirm-mail#${email.toLowerCase()}`;
  const now = d.clock.now();
  const sent = await d.users.getThrottle(key);
  if (sent.failures >= CONFIRM_MAILS_PER_ADDRESS && sent.lastFailureAt) {
    const wait = secondsLeftInWindow(sent.lastFailureAt, CONFIRM_MAIL_WINDOW_SECONDS, now);
    if (wait > 0)
      throw new TooManyRequestsError(API_ERR.tooManyConfirmationMails(Math.ceil(wait / 60)), wait);
  }
  await d.users.recordFailure(
    key,
    now.toISOString(),
    Math.floor(now.getTime() / 1000) + CONFIRM_MAIL_WINDOW_SECONDS,
  );
}
