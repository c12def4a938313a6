import { randomBytes } from 'node:crypto';
import type { PublicUser, RegisterRequest } from '../../../shared/api/contracts/user';
import {
  AppError,
  BadRequestError,
  ConflictError,
  TooManyRequestsError,
} from '../../../shared/domain/errors';
import { EMAIL_LINK_HOURS, emailConfirmedOf, roleStatusOf } from '../../../shared/domain/identity';
import { API_ERR, MSG } from '../../../shared/messages';
import type { EmailToken, UserRecord } from '../../ports/user-repository';
import { hashPassword } from '../password-hasher';
import {
  hashEmailToken,
  newUserRecord,
  recordUserEvent,
  secondsLeftInWindow,
  toPublicUser,
  type UserDeps,
  undoOnFailure,
  warnMailFailed,
} from './common';
import { confirmationMail } from './mails';
import { tellAdminsOfRequest } from './role-requests';

/** Registration and the mailed confirmation links (of a new account and of a new address). */

/** Confirmation mails asked for one address within the window before 429 (issue 12). */
const CONFIRM_MAILS_PER_ADDRESS = 3;
const CONFIRM_MAIL_WINDOW_SECONDS = 15 * 60;

export function assertAllowedDomain(d: UserDeps, email: string): void {
  const allowed = d.config.allowedEmailDomains;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (allowed.length > 0 && !allowed.includes(domain)) {
    throw new BadRequestError(API_ERR.emailDomainNotAllowed(allowed));
  }
}

export async function register(d: UserDeps, req: RegisterRequest): Promise<PublicUser> {
  assertAllowedDomain(d, req.email);
  const now = d.clock.now().toISOString();
  const user = newUserRecord(
    {
      name: req.name,
      email: req.email,
      userRole: req.userRole,
      passwordHash: await hashPassword(req.password),
      emailConfirmed: false,
      roleStatus: 'REQUESTED',
    },
    now,
  );
  if (!(await d.users.create(user))) throw new ConflictError(MSG.registerConflict);
  // No mail, no account: the address stays free, so registering again is the retry.
  await undoOnFailure(
    () => mailConfirmationLink(d, user, user.email, 'REGISTER'),
    () => d.users.discard(user),
  );
  await recordUserEvent(
    d,
    user,
    'USER_REGISTERED',
    `registers as ${user.userRole} and asks for that role; the address waits for confirmation`,
  );
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
  await d.users.putEmailToken({
    tokenHash: hashEmailToken(token),
    userId: user.id,
    email,
    purpose,
    createdAt: now.toISOString(),
    validUntil: new Date(now.getTime() + EMAIL_LINK_HOURS * 3600_000).toISOString(),
  });
  const link = `${d.config.appUrl}/user/confirm-email?token=${token}`;
  await d.mailer.send(confirmationMail(user, email, link, purpose));
}

/** Confirms the address of a mailed link (single use, 24 h); a registration then reaches the admins. */
export async function confirmEmail(d: UserDeps, token: string): Promise<{ message: string; email: string }> {
  const hash = hashEmailToken(token);
  const t = await d.users.getEmailToken(hash);
  const invalid = () => new BadRequestError(API_ERR.confirmLinkInvalid, { reason: 'INVALID' });
  if (!t) throw invalid();
  if (t.usedAt) throw new AppError(409, API_ERR.confirmLinkUsed, { reason: 'USED' });
  const now = d.clock.now();
  if (Date.parse(t.validUntil) <= now.getTime())
    throw new AppError(410, API_ERR.confirmLinkExpired, { reason: 'EXPIRED' });
  const user = await d.users.getById(t.userId);
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
    const result = await d.users.update(next, user.version, user.email);
    if (result === 'emailTaken') throw new ConflictError(MSG.registerConflict);
    if (result === 'conflict') throw new AppError(409, API_ERR.confirmLinkUsed, { reason: 'USED' });
  }
  await d.users.markEmailTokenUsed(hash, now.toISOString());
  if (change) {
    await recordUserEvent(d, user, 'EMAIL_CHANGED', `confirms ${t.email} as the new sign-in address`, {
      before: user.email,
      after: t.email,
    });
    return { message: API_ERR.emailChangeConfirmed, email: t.email };
  }
  if (!wasConfirmed) {
    await recordUserEvent(d, user, 'EMAIL_CONFIRMED', `confirms the address ${user.email}`);
    if (roleStatusOf(user) === 'REQUESTED') await tellAdminsOfRequest(d, user);
  }
  return { message: API_ERR.emailConfirmed, email: user.email };
}

/** A new link for an unconfirmed account; the same answer whether or not the address has one. */
export async function resendConfirmation(d: UserDeps, emailRaw: string): Promise<void> {
  const email = emailRaw.trim().toLowerCase();
  // counted for every address asked, known or not, so the limit tells nothing either
  await countConfirmationMail(d, email);
  const user = await d.users.getByEmail(email);
  if (!user || emailConfirmedOf(user)) return;
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
